/**
 * `npm run capacity [-- <WRU per event> …]`: the capacity table of
 * docs/performance.md ("Toward internet scale"), computed, not measured: at
 * 1k, 10k and 100k events/s sustained, what the stream, the consumers, the
 * timeline table and one hot player need, and the monthly bill from the
 * dated prices of aws-prices.ts through the same formula as the bench's
 * figure 6 (cost.ts). Default: today's 2 write units per event, and the
 * issue's target of sharing them (0.3: the bench's ten ~300-byte events of a
 * profile per batch in one 3 KB write, 3 units; a lone event stays at 1).
 */
import { streamConsumers } from '../../functions/manifest/operations';
import { awsPrices, type AwsPrices } from './aws-prices';
import { costPerMillion, streamFeePerMonth } from './cost';

/** AWS limits the table reasons with (us-east-1 defaults, November 2026). */
export const limits = {
  shardRecordsPerSecond: 1_000,
  /** Share of a shard's limits to plan for: partition keys hash unevenly, and on-demand keeps this much headroom itself. */
  shardUtilisation: 0.5,
  shardBytesPerSecond: 1024 * 1024,
  /** A partition key lives on one shard: one player's records can never go faster than one shard takes. */
  partitionKeyRecordsPerSecond: 1_000,
  /** On-demand stream, default ceiling (raisable on request). */
  onDemandStreamRecordsPerSecond: 200_000,
  /** A new on-demand stream takes this much at once; it doubles toward its previous peak within about 15 minutes. */
  onDemandStreamInitialRecordsPerSecond: 4_000,
  /** Shared by every standard (not enhanced fan-out) consumer of a shard. */
  shardReadBytesPerSecond: 2 * 1024 * 1024,
  maxParallelizationFactor: 10,
  /** Lambda's default account concurrency (raisable). */
  lambdaConcurrency: 1_000,
  /** DynamoDB on-demand, per table, default (raisable). */
  tableWriteUnitsPerSecond: 40_000,
  /** What a new on-demand table serves at once (more after it has seen it, or with warm throughput). */
  newTableWriteUnitsPerSecond: 4_000,
  /** One partition; a table with a local index (the timeline's by-time) cannot split one player's items across partitions. */
  partitionWriteUnitsPerSecond: 1_000,
  /** API Gateway REST, per account and region (raisable). */
  apiRequestsPerSecond: 10_000,
} as const;

/** The workload and the timings the bill assumes; each says where it comes from. */
export const workload = {
  /** An event record on the stream (figure 1: ~320 bytes as written). */
  bytesPerEvent: 320,
  /** Server-side integrations send full bodies; the browser SDK sends one record per request (see "what breaks first"). */
  recordsPerRequest: 500,
  /** Handler (~3 ms, figure 1) plus one PutRecords of 500 records in AWS (assumed ~40 ms; the local emulator is slower). */
  ingestMsPerRequest: 45,
  consumerBatchSize: streamConsumers.find((c) => c.id === 'RecordEvents')!.batchSize,
  /** RecordEvents, a full batch in AWS: one BatchGetItem and four BatchWriteItem (assumed ~15 ms each, in parallel writes). */
  consumerMsPerBatch: 60,
  /** Per batch, one consistent read of each profile (≤ 4 KB: 1 RRU); the bench's workload has 10 events per profile per batch. */
  readUnitsPerEvent: 0.1,
  /** Lambda consumer invocations per shard at once: 1 today (lib/aws/constructs/event-pipeline.ts). */
  parallelizationFactor: 1,
} as const;

export const SECONDS_PER_MONTH = 730 * 3600;

export interface CapacityRow {
  eventsPerSecond: number;
  wruPerEvent: number;
  shards: number;
  /** Records/s one shard's consumer must apply (what the parallelization factor divides). */
  perShardRecordsPerSecond: number;
  /** Records/s one consumer invocation applies: batch ÷ its duration. */
  perInvocationRecordsPerSecond: number;
  parallelizationFactorNeeded: number;
  consumerConcurrency: number;
  ingestConcurrency: number;
  apiRequestsPerSecond: number;
  timelineWriteUnitsPerSecond: number;
  /** Events/s one player can reach: the lower of its shard and its timeline partition. */
  hotPlayerEventsPerSecond: number;
  hotPlayerLimit: 'shard' | 'partition';
  usdPerMillion: number;
  usdPerMonth: number;
  breaksFirst: string;
}

export function capacityAt(eventsPerSecond: number, wruPerEvent: number, prices: AwsPrices = awsPrices): CapacityRow {
  const w = workload;
  const shards = Math.ceil(
    Math.max(eventsPerSecond / limits.shardRecordsPerSecond, (eventsPerSecond * w.bytesPerEvent) / limits.shardBytesPerSecond) / limits.shardUtilisation,
  );
  const perShardRecordsPerSecond = eventsPerSecond / shards;
  const perInvocationRecordsPerSecond = (w.consumerBatchSize / w.consumerMsPerBatch) * 1000;
  const parallelizationFactorNeeded = Math.ceil(perShardRecordsPerSecond / perInvocationRecordsPerSecond);
  const parallelization = Math.max(w.parallelizationFactor, parallelizationFactorNeeded);
  // Every consumer's mapping polls every shard (its filter applies after the read).
  const consumerConcurrency = shards * parallelization * streamConsumers.length;
  const apiRequestsPerSecond = eventsPerSecond / w.recordsPerRequest;
  const ingestConcurrency = Math.ceil((apiRequestsPerSecond * w.ingestMsPerRequest) / 1000);
  const timelineWriteUnitsPerSecond = eventsPerSecond * wruPerEvent;
  const byPartition = limits.partitionWriteUnitsPerSecond / wruPerEvent;
  const hotPlayerLimit = byPartition < limits.partitionKeyRecordsPerSecond ? 'partition' : 'shard';
  const perMillion = costPerMillion(
    {
      recordsPerRequest: w.recordsPerRequest,
      bytesPerRecord: w.bytesPerEvent,
      ingestMsPerRequest: w.ingestMsPerRequest,
      consumerBatchSize: w.consumerBatchSize,
      consumerMsPerBatch: w.consumerMsPerBatch,
      readUnitsPerRecord: w.readUnitsPerEvent,
      writeUnitsPerRecord: wruPerEvent,
    },
    prices,
  ).total;
  const usdPerMonth = (perMillion * eventsPerSecond * SECONDS_PER_MONTH) / 1_000_000 + streamFeePerMonth(prices);
  return {
    eventsPerSecond,
    wruPerEvent,
    shards,
    perShardRecordsPerSecond,
    perInvocationRecordsPerSecond,
    parallelizationFactorNeeded,
    consumerConcurrency,
    ingestConcurrency,
    apiRequestsPerSecond,
    timelineWriteUnitsPerSecond,
    hotPlayerEventsPerSecond: Math.min(byPartition, limits.partitionKeyRecordsPerSecond),
    hotPlayerLimit,
    usdPerMillion: perMillion,
    usdPerMonth,
    breaksFirst: breaksFirst(eventsPerSecond, timelineWriteUnitsPerSecond, consumerConcurrency),
  };
}

/** The first limit the rate runs into, in the order a ramp meets them, and the knob. */
function breaksFirst(eventsPerSecond: number, writeUnits: number, consumerConcurrency: number): string {
  const found: string[] = [];
  if (writeUnits > limits.newTableWriteUnitsPerSecond)
    found.push(
      `timeline WCU ${fmt(writeUnits)}/s > a new on-demand table's ${fmt(limits.newTableWriteUnitsPerSecond)}: set warm throughput (or ramp over hours)`,
    );
  if (eventsPerSecond > limits.onDemandStreamInitialRecordsPerSecond)
    found.push(`stream > its initial ${fmt(limits.onDemandStreamInitialRecordsPerSecond)} records/s: ramp, or provisioned mode with the shards below`);
  if (writeUnits > limits.tableWriteUnitsPerSecond)
    found.push(`timeline WCU > the ${fmt(limits.tableWriteUnitsPerSecond)}/s table quota: raise it (service quota)`);
  if (consumerConcurrency > limits.lambdaConcurrency)
    found.push(`consumer concurrency > ${fmt(limits.lambdaConcurrency)}: raise the account's Lambda concurrency`);
  if (eventsPerSecond > limits.onDemandStreamRecordsPerSecond) found.push('on-demand stream ceiling: raise it, or provisioned shards');
  return found.length > 0 ? found.join('; ') : 'nothing: defaults hold';
}

const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : String(Math.round(n * 100) / 100));

export function capacityTable(rates: number[], wruPerEvent: number[]): string {
  const header =
    '| events/s | WRU/event | shards (on-demand) | per shard, records/s | consumer PF needed | consumer concurrency (a mapping per consumer) | ingest concurrency | API requests/s | timeline WCU/s | one player, events/s max | USD per million events | USD per month | breaks first, and the knob |';
  const rule = `|${header
    .split('|')
    .slice(1, -1)
    .map(() => '---')
    .join('|')}|`;
  const rows = wruPerEvent.flatMap((wru) =>
    rates.map((rate) => {
      const r = capacityAt(rate, wru);
      return `| ${fmt(r.eventsPerSecond)} | ${wru} | ${r.shards} | ${fmt(r.perShardRecordsPerSecond)} | ${r.parallelizationFactorNeeded} | ${fmt(r.consumerConcurrency)} | ${r.ingestConcurrency} | ${fmt(r.apiRequestsPerSecond)} | ${fmt(r.timelineWriteUnitsPerSecond)} | ${fmt(r.hotPlayerEventsPerSecond)} (${r.hotPlayerLimit}) | ${r.usdPerMillion.toFixed(2)} | ${fmt(r.usdPerMonth)} | ${r.breaksFirst} |`;
    }),
  );
  return [header, rule, ...rows].join('\n');
}

if (process.argv[1]?.endsWith('capacity.ts')) {
  const given = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => Number.isFinite(n) && n > 0);
  console.log(capacityTable([1_000, 10_000, 100_000], given.length > 0 ? given : [2, 0.3]));
  console.log(
    `\nPrices: ${awsPrices.region}, checked ${awsPrices.checked} (test/bench/aws-prices.ts); month = 730 h; stream fee $${streamFeePerMonth().toFixed(2)}/month included. ` +
      `Assumptions: test/bench/capacity.ts, \`workload\` and \`limits\`.`,
  );
}
