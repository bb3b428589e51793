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
const BATCH_SIZE = streamConsumers.find((c) => c.id === 'ApplyProfiles')!.batchSize;
/** The consumer's own parallelism across profiles (functions/consumers/apply-profiles/core.ts), given to the baseline too. */
const PARALLEL = 10;
const APP = 'app_bench';

export interface ConsumerCase {
  recordsPerProfile: number;
  recordsPerSecond: number;
  callsPerRecord: number;
  targetCallsPerRecord: number;
  readUnitsPerRecord: number;
  writeUnitsPerRecord: number;
  msPerBatch: number;
  naiveRecordsPerSecond: number;
  naiveCallsPerRecord: number;
  naiveReadUnitsPerRecord: number;
  naiveWriteUnitsPerRecord: number;
  speedup: number;
}

export interface ConsumerResult {
  batchSize: number;
  profiles: ConsumerCase[];
  events: { recordsPerSecond: number; callsPerRecord: number; readUnitsPerRecord: number; writeUnitsPerRecord: number; msPerBatch: number };
}

function profileUpdate(profileId: string, n: number): Record<string, unknown> {
  return {
    app_id: APP,
    profile_id: profileId,
    urm_date_time: '2026-11-21T10:00:00Z',
    urm_insert_id: randomUUID(),
    country: 'MT',
    urm_add: { deposits: 25.5, bets: 1 },
    urm_unique_append: { games: [['slots', 'blackjack', 'roulette'][n % 3]] },
    urm_set: { tier: 'gold', last_seen: n },
  };
}

async function main(): Promise<ConsumerResult> {
  const dynamoLocal = await startBenchDynamo('urm-bench-dynamo-');
  try {
    const endpoint = dynamoLocal.endpoint;

    Object.assign(process.env, functionEnvironment({ dynamodb: endpoint }));
    const { dynamo } = await import('../../functions/adapters/clients/dynamo');
    const applyProfiles = (await import('../../functions/consumers/apply-profiles/handler')).handler as unknown as Consumer;
    const recordEvents = (await import('../../functions/consumers/record-events/handler')).handler as unknown as Consumer;
    const { GetCommand, PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const counter = countDynamoCalls(dynamo);

    let sequence = 1n;
    const shardId = 'shardId-000000000000';
    const batchOf = (kind: 'profile' | 'event', records: Record<string, unknown>[]) => {
      const seqs = sequenceNumbers(records.length, sequence);
      sequence += BigInt(records.length);
      return kinesisEvent(records.map((record, i) => ({ kind, record, sequenceNumber: seqs[i], shardId })));
    };
    const recordsFor = (profileIds: string[], perProfile: number, n: number) =>
      // Stream order interleaves profiles, as a shard does.
      Array.from({ length: perProfile }, (_, j) => profileIds.map((id) => profileUpdate(id, n + j))).flat();

    // DynamoDB Local runs on the JVM: warm it up (JIT, SQLite pages) so the first case is not the slowest by accident.
    const warmIds = Array.from({ length: BATCH_SIZE / 5 }, (_, i) => `warm-${i}`);
    for (const started = performance.now(); performance.now() - started < 3000; ) {
      await applyProfiles(batchOf('profile', recordsFor(warmIds, 5, 0)), context());
    }

    const profiles: ConsumerCase[] = [];
    for (const perProfile of [1, 10, 100]) {
      const profileIds = Array.from({ length: BATCH_SIZE / perProfile }, (_, i) => `bench-${perProfile}-${i}`);
      const naiveIds = profileIds.map((id) => `naive-${id}`);
      const limit = pLimit(PARALLEL);
      // Baseline: each record read and written back on its own, profiles in parallel as the consumer does.
      const naiveBatch = (n: number) =>
        Promise.all(
          naiveIds.map((id) =>
            limit(async () => {
              for (let j = 0; j < perProfile; j++) {
                const record = profileUpdate(id, n + j);
                const pk = `${APP}#${id}`;
                const out = await dynamo.send(new GetCommand({ TableName: tables.profiles.localName, Key: { pk } }));
                const attrs = { ...JSON.parse((out.Item?.attrs as string) ?? '{}'), ...(record.urm_set as object), country: record.country };
                await dynamo.send(new PutCommand({ TableName: tables.profiles.localName, Item: { pk, attrs: JSON.stringify(attrs) } }));
              }
            }),
          ),
        );
      // First batch creates the profiles, on both sides: what is measured are updates.
      await applyProfiles(batchOf('profile', recordsFor(profileIds, perProfile, 0)), context());
      await naiveBatch(0);
      // The consumer and the baseline take turns, a batch each, so a slow moment of the (shared) machine falls on both.
      const consumerCounts = { calls: 0, readUnits: 0, writeUnits: 0 };
      const naiveCounts = { calls: 0, readUnits: 0, writeUnits: 0 };
      const measure = async (counts: typeof consumerCounts, work: () => Promise<unknown>): Promise<number> => {
        counter.reset();
        const started = performance.now();
        await work();
        const ms = performance.now() - started;
        counts.calls += counter.counts.calls;
        counts.readUnits += counter.counts.readUnits;
        counts.writeUnits += counter.counts.writeUnits;
        return ms;
      };
      let elapsed = 0;
      let naiveElapsed = 0;
      let batches = 0;
      const start = performance.now();
      while (batches < 5 || performance.now() - start < 2 * RUN_MS) {
        batches++;
        elapsed += await measure(consumerCounts, async () => {
          const response = await applyProfiles(batchOf('profile', recordsFor(profileIds, perProfile, batches * perProfile)), context());
          if (response.batchItemFailures.length > 0) throw new Error(`the consumer failed ${response.batchItemFailures.length} profiles`);
        });
        naiveElapsed += await measure(naiveCounts, () => naiveBatch(batches * perProfile));
      }
      // Both sides applied the same number of records.
      const records = batches * BATCH_SIZE;
      const recordsPerSecond = records / (elapsed / 1000);
      const naiveRecordsPerSecond = records / (naiveElapsed / 1000);
      profiles.push({
        recordsPerProfile: perProfile,
        recordsPerSecond: Math.round(recordsPerSecond),
        callsPerRecord: round(consumerCounts.calls / records, 3),
        targetCallsPerRecord: round(2 / perProfile, 3),
        readUnitsPerRecord: round(consumerCounts.readUnits / records, 3),
        writeUnitsPerRecord: round(consumerCounts.writeUnits / records, 3),
        msPerBatch: round(elapsed / batches, 1),
        naiveRecordsPerSecond: Math.round(naiveRecordsPerSecond),
        naiveCallsPerRecord: round(naiveCounts.calls / records, 3),
        naiveReadUnitsPerRecord: round(naiveCounts.readUnits / records, 3),
        naiveWriteUnitsPerRecord: round(naiveCounts.writeUnits / records, 3),
        speedup: round(recordsPerSecond / naiveRecordsPerSecond, 2),
      });
    }

    // The event consumer: 10 events per profile per batch.
    const eventProfiles = Array.from({ length: BATCH_SIZE / 10 }, (_, i) => `bench-events-${i}`);
    const eventRecords = () =>
      Array.from({ length: 10 }, (_, j) =>
        eventProfiles.map((id) => ({
          app_id: APP,
          profile_id: id,
          event: 'bet',
          urm_date_time: `2026-11-21T10:00:0${j}Z`,
          urm_insert_id: randomUUID(),
          amount: j + 0.5,
          game: 'slots',
        })),
      ).flat();
    await recordEvents(batchOf('event', eventRecords()), context());
    counter.reset();
    let eventCount = 0;
    let eventBatches = 0;
    const eventStart = performance.now();
    while (eventBatches < 5 || performance.now() - eventStart < RUN_MS) {
      await recordEvents(batchOf('event', eventRecords()), context());
      eventCount += BATCH_SIZE;
      eventBatches++;
    }
    const eventElapsed = performance.now() - eventStart;
    return {
      batchSize: BATCH_SIZE,
      profiles,
      events: {
        recordsPerSecond: Math.round(eventCount / (eventElapsed / 1000)),
        callsPerRecord: round(counter.counts.calls / eventCount, 3),
        readUnitsPerRecord: round(counter.counts.readUnits / eventCount, 3),
        writeUnitsPerRecord: round(counter.counts.writeUnits / eventCount, 3),
        msPerBatch: round(eventElapsed / eventBatches, 1),
      },
    };
  } finally {
    await dynamoLocal.stop();
  }
}

report(await main());
process.exit(0);
