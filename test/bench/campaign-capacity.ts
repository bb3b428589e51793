/**
 * Figures 12 to 14 as rows of `npm run bench`, and what is computed from their
 * counts on paper: a 1 M-player broadcast in AWS at the SES rates of a new
 * and a warmed account (figure 13), and USD per million journey entries and
 * broadcast messages (figure 14), from counted calls and write units and the
 * dated prices of aws-prices.ts.
 */
import { messagingLimits } from '../../functions/domain/send-gate';
import { awsPrices, type AwsPrices } from './aws-prices';
import type { BroadcastThroughputResult } from './broadcast-throughput';
import { workload } from './capacity';
import { costPerMillion, lambdaCost } from './cost';
import type { JourneyCostResult } from './journey-cost';
import { round, type BenchRow } from './support';

const MILLION = 1_000_000;

/**
 * SES sending quotas (per account and region). Sandbox: the SES developer guide,
 * "Request production access" (docs.aws.amazon.com/ses/latest/dg/request-production-access.html,
 * read 2026-11-27): 200 messages per 24 hours, 1 per second. Out of the sandbox,
 * the quotas page (…/dg/quotas.html, read 2026-11-27) says only that they
 * "vary based on your specific use case"; 14/s and 50,000 a day are the starter
 * quota AWS long published and new accounts were commonly given (no longer on
 * the page). 500/s is a warmed account and our own ceiling (broadcast_rate's maximum).
 */
export const sesAccounts = [
  { name: 'sandbox', perSecond: 1, perDay: 200 },
  { name: 'new production (starter)', perSecond: 14, perDay: 50_000 },
  { name: 'warmed', perSecond: messagingLimits.broadcastRateMax, perDay: Number.POSITIVE_INFINITY },
] as const;

/** Latencies in AWS the paper assumes (DynamoDB in-region single-digit ms; SES SendEmail tens of ms). */
export const awsLatency = { dynamoCallMs: 5, sendEmailMs: 40 } as const;

/** A new on-demand table serves this many write units/s at once (capacity.ts, `limits`). */
const NEW_TABLE_WRU_PER_SECOND = 4_000;

/** USD for one record a function writes to the stream itself: Kinesis in and out, the consumers, its timeline write (figure 6's events, less API Gateway and the ingest function). */
export function ownStreamRecordUsd(prices: AwsPrices = awsPrices): number {
  const c = costPerMillion(
    {
      recordsPerRequest: workload.recordsPerRequest,
      bytesPerRecord: workload.bytesPerEvent,
      ingestMsPerRequest: workload.ingestMsPerRequest,
      consumerBatchSize: workload.consumerBatchSize,
      consumerMsPerBatch: workload.consumerMsPerBatch,
      readUnitsPerRecord: workload.readUnitsPerEvent,
      writeUnitsPerRecord: 2,
    },
    prices,
  );
  return (c.total - c.apiGateway - c.lambdaIngest) / MILLION;
}

export interface CampaignCost {
  dynamodb: number;
  lambda: number;
  stream: number;
  ses: number;
  total: number;
}

function costOf(per: { readUnits: number; writeUnits: number; streamRecords: number; emails: number }, lambda: number, prices: AwsPrices): CampaignCost {
  const dynamodb =
    MILLION * per.readUnits * (prices.dynamodb.onDemandPerMillionReadUnits / MILLION) +
    MILLION * per.writeUnits * (prices.dynamodb.onDemandPerMillionWriteUnits / MILLION);
  const stream = MILLION * per.streamRecords * ownStreamRecordUsd(prices);
  const ses = ((MILLION * per.emails) / 1000) * prices.ses.perThousandEmails;
  return { dynamodb, lambda, stream, ses, total: dynamodb + lambda + stream + ses };
}

/** USD per million journey entries: the counted calls, the consumer's batches and the timers' runs as Lambda bills them (local durations: an upper bound). */
export function journeyCostPerMillion(j: JourneyCostResult, prices: AwsPrices = awsPrices): CampaignCost {
  // Every entry is a record of a consumer batch; the converting half brings a second (its goal).
  const recordsPerEntry = 1 + j.converted / j.entries;
  const consumer = lambdaCost((MILLION * recordsPerEntry) / j.consumerBatchSize, j.consumerMsPerBatch, prices);
  const timers = lambdaCost(1, MILLION * (j.mailed / j.entries) * j.timerMsPerFired, prices);
  return costOf(
    { readUnits: j.perEntry.readUnits, writeUnits: j.perEntry.writeUnits, streamRecords: j.perEntry.streamRecords, emails: j.perEntry.emails },
    consumer + timers,
    prices,
  );
}

/** USD per million broadcast messages, from the counted run (its Lambda time includes the wait for the last to settle: an upper bound). */
export function broadcastCostPerMillion(b: BroadcastThroughputResult, prices: AwsPrices = awsPrices): CampaignCost {
  const c = b.counted;
  return costOf(
    {
      readUnits: c.dynamo.readUnitsPerMessage,
      writeUnits: c.dynamo.writeUnitsPerMessage,
      streamRecords: c.streamRecordsPerMessage,
      emails: c.sesCallsPerMessage,
    },
    lambdaCost(1, MILLION * c.msPerMessage, prices),
    prices,
  );
}

export interface BroadcastPlan {
  account: string;
  sesPerSecond: number;
  /** What one run of the sender reaches in AWS: its concurrency ÷ a message's calls in sequence. */
  senderPerSecond: number;
  perSecond: number;
  hours: number;
  /** Days the daily quota stretches it to, where it binds. */
  days: number;
  writeUnitsPerSecond: number;
  limitedBy: string;
}

/** A million-player broadcast in AWS at each account's SES quotas, with the sender's own concurrency and the table's write rate. */
export function broadcastPlans(b: BroadcastThroughputResult, concurrency: number, players = MILLION): BroadcastPlan[] {
  const messageMs = b.counted.dynamo.callsPerMessage * awsLatency.dynamoCallMs + b.counted.sesCallsPerMessage * awsLatency.sendEmailMs;
  const senderPerSecond = Math.floor((concurrency * 1000) / messageMs);
  return sesAccounts.map((account) => {
    const perSecond = Math.min(account.perSecond, senderPerSecond);
    const days = players / account.perDay;
    const hours = Math.max(players / perSecond / 3600, days * 24);
    const writeUnitsPerSecond = perSecond * b.counted.dynamo.writeUnitsPerMessage;
    const limitedBy =
      days > players / perSecond / 86_400
        ? `SES daily quota (${account.perDay.toLocaleString('en-US')}/day)`
        : perSecond < account.perSecond
          ? `the sender: ${concurrency} sends at once × ${Math.round(messageMs)} ms each`
          : `SES rate (${account.perSecond}/s)`;
    return { account: account.name, sesPerSecond: account.perSecond, senderPerSecond, perSecond, hours, days, writeUnitsPerSecond, limitedBy };
  });
}

const usd = (value: number) => round(value, value < 1 ? 4 : 2);

export function broadcastRows(b: BroadcastThroughputResult): BenchRow[] {
  const c = b.counted;
  return [
    {
      figure: '12 broadcast',
      measure: `messages/s into the local SES, ${b.players} players at rate ${b.rate}, gate on (first mail after ${b.firstMailSeconds} s)`,
      value: b.messagesPerSecond,
      baseline: `${b.mailerAlone.messagesPerSecond} (the mailer alone, ${b.mailerAlone.concurrency} at once)`,
      ratio: `${round(b.messagesPerSecond / Math.max(1, b.mailerAlone.messagesPerSecond), 3)} (broadcast ÷ mailer)`,
      target: '',
    },
    {
      figure: '12 broadcast',
      measure: `per message (${c.messages} counted in process): DynamoDB calls / RRU / WRU / stream records / SendEmail`,
      value: `${c.dynamo.callsPerMessage} / ${c.dynamo.readUnitsPerMessage} / ${c.dynamo.writeUnitsPerMessage} / ${c.streamRecordsPerMessage} / ${c.sesCallsPerMessage}`,
      baseline: `${c.dynamoMsPerMessage} ms waiting on DynamoDB Local per message (its calls summed)`,
      ratio: '',
      target: '',
    },
  ];
}

export function broadcastCapacityRows(b: BroadcastThroughputResult, concurrency: number): BenchRow[] {
  const cost = broadcastCostPerMillion(b);
  return broadcastPlans(b, concurrency).map((plan) => ({
    figure: '13 1 M broadcast (paper)',
    measure: `${plan.account}: SES ${plan.sesPerSecond}/s; hours to send 1 M (messages/s; table WRU/s)`,
    value: `${round(plan.hours, 1)} h (${plan.perSecond}/s; ${Math.round(plan.writeUnitsPerSecond)} WRU/s)`,
    baseline: `${round(MILLION / plan.sesPerSecond / 3600, 1)} h at SES's rate alone`,
    ratio: `limited by ${plan.limitedBy}${plan.writeUnitsPerSecond > NEW_TABLE_WRU_PER_SECOND ? '; above a new table’s 4,000 WRU/s' : ''}`,
    target: `USD ${usd(cost.total)} (SES ${usd(cost.ses)})`,
  }));
}

/** Customer.io's published price for messages over a plan's allowance (customer.io/docs/journeys/how-we-bill, read 2026-11-27): per 1,000. */
export const customerIoPerThousandMessages = 0.12;

export function journeyCostRows(j: JourneyCostResult): BenchRow[] {
  const cost = journeyCostPerMillion(j);
  const p = j.perEntry;
  return [
    {
      figure: '14 journey cost',
      measure: `per entry (wait 1 d → email, goal Deposit; ${j.entries} entries, ${j.converted} converted): DynamoDB calls / RRU / WRU / stream records / emails`,
      value: `${p.dynamoCalls} / ${p.readUnits} / ${p.writeUnits} / ${p.streamRecords} / ${p.emails}`,
      baseline: '',
      ratio: '',
      target: '',
    },
    {
      figure: '14 journey cost',
      measure: `USD per million entries (DynamoDB ${usd(cost.dynamodb)}, Lambda ${usd(cost.lambda)}, stream ${usd(cost.stream)}, SES ${usd(cost.ses)})`,
      value: usd(cost.total),
      baseline: `${usd(cost.ses)} (SES alone); Customer.io ${usd(((MILLION * p.emails) / 1000) * customerIoPerThousandMessages)} (its overage per message)`,
      ratio: `${round(cost.total / Math.max(0.0001, cost.ses), 2)} (total ÷ SES)`,
      target: '',
    },
  ];
}
