import type { Context, KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
import { streamConsumers } from '../../functions/manifest/operations';
import { tables } from '../../functions/manifest/resources';
import { kinesisEvent, sequenceNumbers } from '../support/kinesis-event';
import { context } from '../support/lambda';
import { countDynamoCalls, functionEnvironment, startBenchDynamo, report, round } from './support';

type Consumer = (event: KinesisStreamEvent, context: Context) => Promise<KinesisStreamBatchResponse>;

const RUN_MS = Number(process.env.URM_BENCH_RUN_MS ?? 3000);
const BATCH_SIZE = streamConsumers.find((c) => c.id === 'CountFunnel')!.batchSize;
const PER_PLAYER = 10;
const AFFILIATES = 5;
const PARALLEL = 10;
const APP = 'app_bench_funnel';

export interface FunnelResult {
  batchSize: number;
  eventsPerSecond: number;
  callsPerEvent: number;
  writeUnitsPerEvent: number;
  msPerBatch: number;
  naiveEventsPerSecond: number;
  naiveCallsPerEvent: number;
  speedup: number;
}

const kinds = ['Deposit', 'Bet', 'Win', 'Bet', 'Bonus'];

async function main(): Promise<FunnelResult> {
  const dynamoLocal = await startBenchDynamo('urm-bench-funnel-');
  try {
    const endpoint = dynamoLocal.endpoint;

    Object.assign(process.env, functionEnvironment({ dynamodb: endpoint }));
    const { dynamo } = await import('../../functions/adapters/clients/dynamo');
    const { GetCommand, PutCommand } = await import('@aws-sdk/lib-dynamodb');
    await dynamo.send(
      new PutCommand({
        TableName: tables.apps.localName,
        Item: {
          app_id: APP,
          name: 'Bench',
          created_at: '2026-11-01T00:00:00Z',
          currency: 'EUR',
          money_events: { Deposit: 'deposit', Bet: 'bet', Win: 'win', Bonus: 'bonus' },
        },
      }),
    );
    const countFunnel = (await import('../../functions/consumers/count-funnel/handler')).handler as unknown as Consumer;
    const counter = countDynamoCalls(dynamo);

    let sequence = 1n;
    const shardId = 'shardId-000000000000';
    const batchOf = (records: Record<string, unknown>[]) => {
      const seqs = sequenceNumbers(records.length, sequence);
      sequence += BigInt(records.length);
      return kinesisEvent(records.map((record, i) => ({ kind: 'event' as const, record, sequenceNumber: seqs[i], shardId })));
    };
    const players = Array.from({ length: BATCH_SIZE / PER_PLAYER }, (_, i) => `bench-player-${i}`);
    const moneyEvents = (n: number) =>
      // Stream order interleaves players, as a shard does.
      Array.from({ length: PER_PLAYER }, (_, j) =>
        players.map((player) => ({
          app_id: APP,
          profile_id: player,
          event: kinds[(n + j) % kinds.length],
          amount: 10.25,
          currency: 'EUR',
          urm_date_time: '2026-11-21T10:00:00Z',
          urm_insert_id: randomUUID(),
        })),
      ).flat();
    // The players are attributed first: what is measured are events that count for an affiliate.
    await countFunnel(
      batchOf(
        players.map((player, i) => ({
          app_id: APP,
          profile_id: player,
          event: 'urm_affiliate_attributed',
          urm_aff_id: `aff-${i % AFFILIATES}`,
          urm_date_time: '2026-11-21T09:00:00Z',
          urm_insert_id: randomUUID(),
        })),
      ),
      context(),
    );
    // DynamoDB Local runs on the JVM: warm it up.
    for (const started = performance.now(); performance.now() - started < 2000; ) await countFunnel(batchOf(moneyEvents(0)), context());

    counter.reset();
    let events = 0;
    let batches = 0;
    const start = performance.now();
    while (batches < 5 || performance.now() - start < RUN_MS) {
      const response = await countFunnel(batchOf(moneyEvents(batches)), context());
      if (response.batchItemFailures.length > 0) throw new Error('the funnel consumer failed a batch');
      events += BATCH_SIZE;
      batches++;
    }
    const elapsed = performance.now() - start;
    const counts = { ...counter.counts };

    // Baseline: each event read and written back on its affiliate's day row, players in parallel.
    counter.reset();
    let naiveEvents = 0;
    const naiveStart = performance.now();
    const limit = pLimit(PARALLEL);
    while (naiveEvents < 5 * BATCH_SIZE || performance.now() - naiveStart < RUN_MS) {
      await Promise.all(
        players.map((_player, p) =>
          limit(async () => {
            for (let j = 0; j < PER_PLAYER; j++) {
              const key = { pk: `naive#${APP}#aff-${p % AFFILIATES}`, sk: 'd#2026-11-21#-' };
              const out = await dynamo.send(new GetCommand({ TableName: tables.funnel.localName, Key: key }));
              const bets = Number(out.Item?.bets ?? 0) + 10.25;
              await dynamo.send(new PutCommand({ TableName: tables.funnel.localName, Item: { ...key, bets } }));
            }
          }),
        ),
      );
      naiveEvents += BATCH_SIZE;
    }
    const naiveElapsed = performance.now() - naiveStart;
    const eventsPerSecond = events / (elapsed / 1000);
    const naiveEventsPerSecond = naiveEvents / (naiveElapsed / 1000);
    return {
      batchSize: BATCH_SIZE,
      eventsPerSecond: Math.round(eventsPerSecond),
      callsPerEvent: round(counts.calls / events, 3),
      writeUnitsPerEvent: round(counts.writeUnits / events, 3),
      msPerBatch: round(elapsed / batches, 1),
      naiveEventsPerSecond: Math.round(naiveEventsPerSecond),
      naiveCallsPerEvent: round(counter.counts.calls / naiveEvents, 3),
      speedup: round(eventsPerSecond / naiveEventsPerSecond, 2),
    };
  } finally {
    await dynamoLocal.stop();
  }
}

report(await main());
process.exit(0);
