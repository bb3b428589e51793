/**
 * AWS list prices the cost figure (npm run bench, figure 6) multiplies the
 * measured calls and bytes by. On-demand, no free tier, no savings plans.
 *
 * Region: us-east-1 (US East, N. Virginia). Currency: USD.
 * Compiled: 2026-11-21, from what could be read that day without an AWS
 * account (the pricing pages render their rate tables client-side, so their
 * text carries few numbers). What each value rests on is said next to it.
 * Check https://aws.amazon.com/<service>/pricing/ (or the AWS Price List API)
 * before relying on a figure for a budget, and update `checked` when you do.
 */
export const awsPrices = {
  region: 'us-east-1',
  currency: 'USD',
  checked: '2026-11-21',

  apiGateway: {
    /** REST API, first 333 million requests a month (later tiers are cheaper). */
    restPerMillionRequests: 3.5,
    source:
      'aws.amazon.com/api-gateway/pricing (REST API, first tier, US regions): the page text read here shows no rate ' +
      '(rendered client-side); $3.50 is the long-published rate, also in a public API catalogue that marks its entry ' +
      'as generated, not read from AWS. Not verified against the live page.',
  },

  lambda: {
    /** arm64 (Graviton), per GB-second of duration, first 6 billion GB-s a month. */
    arm64PerGbSecond: 0.0000133334,
    perMillionRequests: 0.2,
    /** Duration is billed per 1 ms. */
    billingGranularityMs: 1,
    source:
      'aws.amazon.com/lambda/pricing: $0.20 per million requests (quoted verbatim from the page text, for Lambda ' +
      'Managed Instances, by a public catalogue that read it 2026-09-20; the same rate as for functions); ' +
      'arm64 $0.0000133334 per GB-s from the price table published with the artillery load-testing tool (prices.js), ' +
      'consistent with x86 $0.0000166667 less the 20% arm discount. Not read from the live page.',
  },

  kinesis: {
    /** On-demand (Standard) mode. Data in is counted per record rounded UP to the next KiB. */
    onDemandPerGbIngested: 0.08,
    /** Data read by consumers (shared throughput, not enhanced fan-out). */
    onDemandPerGbRetrieved: 0.04,
    onDemandPerStreamHour: 0.04,
    ingestRoundingBytes: 1024,
    source:
      'aws.amazon.com/kinesis/data-streams/pricing: the rounding of each record up to 1 KB for data in is in the page text ' +
      '(read 2026-11-21); the three rates are the published us-east-1 On-demand Standard rates as widely quoted, ' +
      'not readable in the page text that day (rendered client-side). Not verified against the live page. ' +
      'The account-level On-demand Advantage mode is cheaper per GB and has no stream-hour fee.',
  },

  dynamodb: {
    /** On-demand, standard table class: one WRU writes 1 KB; one RRU reads 4 KB strongly consistent (eventually consistent: half). */
    onDemandPerMillionWriteUnits: 0.625,
    onDemandPerMillionReadUnits: 0.125,
    source:
      'aws.amazon.com/dynamodb/pricing/on-demand: unit definitions in the page text (read 2026-11-21); ' +
      'prices after the November 2024 on-demand reduction as published in third-party summaries (airbyte.com, 2025). ' +
      'Not verified against the live page.',
  },

  ses: {
    /** Outbound email, per 1,000 messages (attachments and dedicated IPs extra); the EC2-hosted free tier left out. */
    perThousandEmails: 0.1,
    source:
      'aws.amazon.com/ses/pricing: the page defers to its rate table (rendered client-side); $0.10 per 1,000 is the long-published ' +
      'rate, quoted by third-party guides (acecloudinterviews.com, read 2026-11-27). Not verified against the live page.',
  },
} as const;

export type AwsPrices = typeof awsPrices;
