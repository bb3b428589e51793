import type { Context, KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Condition } from '../../functions/domain/segments/condition';
import type { SegmentDefinition } from '../../functions/domain/segments/model';
import { tables } from '../../functions/manifest/resources';
import { kinesisEvent, sequenceNumbers } from '../support/kinesis-event';
import { context } from '../support/lambda';
import { readyDefinition } from '../support/segment-state';
import { awsPrices } from './aws-prices';
import { countDynamoCalls, functionEnvironment, startBenchDynamo, report, round, type BenchRow } from './support';

type Consumer = (event: KinesisStreamEvent, context: Context) => Promise<KinesisStreamBatchResponse>;

const RUN_MS = Number(process.env.URM_BENCH_RUN_MS ?? 3000);
const APP = 'app_bench_segments';
const BACKFILL_APP = 'app_bench_backfill';
const BACKFILL_PLAYERS = 1_000;
const SEGMENTS = 20;
const PLAYERS_PER_BATCH = 10;
const PER_PLAYER = 10;
const LAMBDA_GB = 0.25;

export interface SegmentEngineResult {
  segments: number;
  events: number;
  /** Per 1,000 events. */
  engine: { calls: number; readUnits: number; writeUnits: number; msPerBatch: number };
  timeline: { calls: number; readUnits: number; writeUnits: number; msPerBatch: number };
  /** USD per million events the engine adds: DynamoDB, Lambda. */
  usdPerMillion: { dynamodb: number; lambda: number; total: number };
  backfill: { players: number; playersPerSecond: number; baselinePlayersPerSecond: number; ratio: number };
}

/** 20 segments of every kind of figure, so the needs are what a real application has. */
function conditions(): Condition[] {
  const kinds = (i: number): Condition[] => [
    { events: { money: 'deposit' }, measure: 'count', op: 'gte', value: 1 + i },
    { events: { name: 'Login' }, measure: 'count', op: 'gte', value: 3 + i, within_days: 7 * (1 + (i % 4)) },
    { last: { name: 'Login' }, not_within_days: 7 + i },
    { events: { money: 'deposit' }, measure: 'sum', op: 'gte', value: String(50 * (i + 1)) },
    { lifecycle: 'ngr', op: 'gte', value: String(10 * i) },
    { all: [{ reachable: 'email' }, { attribute: 'country', op: 'in', value: ['MT', 'IE'] }] },
    { events: { name: 'Bet' }, measure: 'sum', property: 'amount', op: 'gt', value: 5 * i, within_days: 30 },
  ];
  return Array.from({ length: SEGMENTS }, (_, i) => kinds(Math.floor(i / 7))[i % 7]);
}

async function main(): Promise<SegmentEngineResult> {
  const dynamoLocal = await startBenchDynamo('urm-bench-segments-');
  try {
    const endpoint = dynamoLocal.endpoint;

    Object.assign(process.env, functionEnvironment({ dynamodb: endpoint }));
    const { dynamo } = await import('../../functions/adapters/clients/dynamo');
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const stores = await import('../../functions/adapters/stores');
    const { makeKeepSegmentsHandler } = await import('../../functions/consumers/keep-segments/make-handler');
    const { runSegmentTimers } = await import('../../functions/scheduled/segment-timers/core');
    const { moneySettingsOf } = await import('../../functions/domain/money-settings');
    const { batchWriteAll } = await import('../../functions/adapters/batch-write');
    const recordEvents = (await import('../../functions/consumers/record-events/handler')).handler as unknown as Consumer;
    const longAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
    for (const appId of [APP, BACKFILL_APP]) {
      await dynamo.send(
        new PutCommand({
          TableName: tables.apps.localName,
          Item: { app_id: appId, name: 'Bench', created_at: longAgo, currency: 'EUR', money_events: { Deposit: 'deposit', Bet: 'bet', Win: 'win' } },
        }),
      );
    }
    const definitions = stores.segmentStore();
    const definition = (appId: string, segmentId: string, condition: Condition, extra: Partial<SegmentDefinition> = {}) =>
      readyDefinition(appId, segmentId, condition, { sinceMs: 30 * 86_400_000, updated_by: 'bench', ...extra });
    for (const [i, condition] of conditions().entries()) await definitions.create(definition(APP, `s${i}`, condition));

    let emitted = 0;
    const stream = {
      write: async (entries: unknown[]) => {
        emitted += entries.length;
        return { EncryptionType: 'NONE', FailedRecordCount: 0, Records: entries.map(() => ({ SequenceNumber: '1', ShardId: 'shardId-000000000000' })) };
      },
    };
    const keepSegments = makeKeepSegmentsHandler({
      definitions,
      states: stores.segmentStateStore(),
      profiles: stores.profileStore(),
      timeline: stores.timelineStore(),
      apps: stores.appStore(),
      rejections: stores.rejectionLog(),
      stream,
      now: () => new Date(),
    }) as unknown as Consumer;
    const counter = countDynamoCalls(dynamo);

    let sequence = 1n;
    const shardId = 'shardId-000000000000';
    const batchOf = (records: Record<string, unknown>[]) => {
      const seqs = sequenceNumbers(records.length, sequence);
      sequence += BigInt(records.length);
      return kinesisEvent(records.map((record, i) => ({ kind: 'event' as const, record, sequenceNumber: seqs[i], shardId })));
    };
    const names = ['Login', 'Deposit', 'Bet', 'Win', 'PageView'];
    let round_ = 0;
    // Fresh players every few batches, so first figures (a timeline walk) are in the mix as they are in life.
    const nextBatch = () => {
      const r = round_++;
      const players = Array.from({ length: PLAYERS_PER_BATCH }, (_, p) => `player-${Math.floor(r / 5)}-${p}`);
      return batchOf(
        Array.from({ length: PER_PLAYER }, (_, j) =>
          players.map((player) => ({
            app_id: APP,
            profile_id: player,
            event: names[(r + j) % names.length],
            amount: 12.5,
            currency: 'EUR',
            urm_date_time: new Date().toISOString(),
            urm_insert_id: randomUUID(),
          })),
        ).flat(),
      );
    };
    const side = { calls: 0, readUnits: 0, writeUnits: 0, ms: 0 };
    const engine = { ...side };
    const timeline = { ...side };
    const measureInto = async (into: typeof side, work: () => Promise<KinesisStreamBatchResponse>) => {
      counter.reset();
      const started = performance.now();
      const response = await work();
      into.ms += performance.now() - started;
      if (response.batchItemFailures.length > 0) throw new Error('a consumer failed a batch');
      into.calls += counter.counts.calls;
      into.readUnits += counter.counts.readUnits;
      into.writeUnits += counter.counts.writeUnits;
    };
    // DynamoDB Local runs on the JVM: warm it up.
    for (const started = performance.now(); performance.now() - started < 1500; ) {
      const batch = nextBatch();
      await recordEvents(batch, context());
      await keepSegments(batch, context());
    }
    engine.ms = 0;
    let batches = 0;
    Object.assign(engine, side);
    Object.assign(timeline, side);
    for (const started = performance.now(); batches < 10 || performance.now() - started < RUN_MS; batches++) {
      const batch = nextBatch();
      await measureInto(timeline, () => recordEvents(batch, context()));
      await measureInto(engine, () => keepSegments(batch, context()));
    }
    const events = batches * PLAYERS_PER_BATCH * PER_PLAYER;
    const perThousand = (s: typeof side) => ({
      calls: round((s.calls / events) * 1000, 0),
      readUnits: round((s.readUnits / events) * 1000, 0),
      writeUnits: round((s.writeUnits / events) * 1000, 0),
      msPerBatch: round(s.ms / batches, 1),
    });
    const prices = awsPrices.dynamodb;
    const dynamodbUsd = (engine.writeUnits / events) * prices.onDemandPerMillionWriteUnits + (engine.readUnits / events) * prices.onDemandPerMillionReadUnits;
    const invocations = 1_000_000 / (PLAYERS_PER_BATCH * PER_PLAYER);
    const lambdaUsd =
      invocations * (LAMBDA_GB * (engine.ms / batches / 1000) * awsPrices.lambda.arm64PerGbSecond) +
      (invocations / 1_000_000) * awsPrices.lambda.perMillionRequests;

    // Backfill: 1,000 players with a deposit each on their timeline.
    const profiles = Array.from({ length: BACKFILL_PLAYERS }, (_, i) => `b-${String(i).padStart(5, '0')}`);
    await batchWriteAll(
      dynamo,
      tables.profiles.localName,
      profiles.map((id) => ({
        PutRequest: {
          Item: {
            pk: `${BACKFILL_APP}#${id}`,
            app_id: BACKFILL_APP,
            profile_id: id,
            attrs: '{}',
            exists: true,
            version: 1,
            updated_at: longAgo,
            applied: {},
            recent: {},
          },
        },
      })),
    );
    const at = new Date(Date.now() - 86_400_000).toISOString();
    await stores.timelineStore().writeNew(
      profiles.map((id, i) => ({
        pk: `${BACKFILL_APP}#${id}`,
        insert_id: `dep-${i}`,
        ts: `${at}#dep-${i}`,
        event: 'Deposit',
        urm_date_time: at,
        received_at: at,
        shard: shardId,
        seq: '1',
        attrs: JSON.stringify({ amount: (i % 200) + 1, currency: 'EUR' }),
      })),
    );
    const startedAt = new Date(Date.now() - 10 * 60_000).toISOString();
    await definitions.create(
      definition(
        BACKFILL_APP,
        'big',
        { lifecycle: 'lifetime_deposits', op: 'gte', value: '100' },
        { status: 'backfilling', backfill: { started_at: startedAt, done: 0 } },
      ),
    );
    const settingsOf = async (appId: string) => {
      const app = await stores.appStore().get(appId);
      return app && moneySettingsOf(app);
    };
    const timers = runSegmentTimers({
      definitions,
      states: stores.segmentStateStore(),
      profiles: stores.profileStore(),
      timeline: stores.timelineStore(),
      directory: stores.playerDirectory(),
      stream,
      settings: settingsOf,
      now: () => new Date(),
    });
    const backfillStart = performance.now();
    while ((await definitions.get(BACKFILL_APP, 'big'))?.status !== 'ready') await timers();
    const backfillMs = performance.now() - backfillStart;
    const size = await definitions.size(BACKFILL_APP, 'big');
    if (size !== profiles.filter((_, i) => (i % 200) + 1 >= 100).length) throw new Error(`the backfill made ${size} members`);

    // Baseline: what any backfill reads: the listing and the profiles, a page of 100 at a time.
    const directory = stores.playerDirectory();
    const profileStore = stores.profileStore();
    const baselineStart = performance.now();
    let after: string | undefined;
    do {
      const page = await directory.page(BACKFILL_APP, { limit: 100, after });
      await profileStore.getMany(
        page.profileIds.map((id) => `${BACKFILL_APP}#${id}`),
        undefined,
        true,
      );
      after = page.last;
    } while (after);
    const baselineMs = performance.now() - baselineStart;
    const playersPerSecond = BACKFILL_PLAYERS / (backfillMs / 1000);
    const baselinePlayersPerSecond = BACKFILL_PLAYERS / (baselineMs / 1000);
    process.stderr.write(`segment events emitted: ${emitted}\n`);
    return {
      segments: SEGMENTS,
      events,
      engine: perThousand(engine),
      timeline: perThousand(timeline),
      usdPerMillion: { dynamodb: round(dynamodbUsd, 3), lambda: round(lambdaUsd, 3), total: round(dynamodbUsd + lambdaUsd, 3) },
      backfill: {
        players: BACKFILL_PLAYERS,
        playersPerSecond: Math.round(playersPerSecond),
        baselinePlayersPerSecond: Math.round(baselinePlayersPerSecond),
        ratio: round(playersPerSecond / baselinePlayersPerSecond, 2),
      },
    };
  } finally {
    await dynamoLocal.stop();
  }
}

export function segmentEngineRows(r: SegmentEngineResult): BenchRow[] {
  const figure = '10 segments';
  return [
    {
      figure,
      measure: `DynamoDB calls per 1,000 events, ${r.segments} active segments`,
      value: r.engine.calls,
      baseline: `${r.timeline.calls} (the timeline consumer, same events)`,
      ratio: `${round(r.engine.calls / r.timeline.calls, 2)} (engine ÷ timeline)`,
      target: '',
    },
    {
      figure,
      measure: `write units per 1,000 events (read units: ${r.engine.readUnits})`,
      value: r.engine.writeUnits,
      baseline: `${r.timeline.writeUnits} (the timeline consumer)`,
      ratio: `${round(r.engine.writeUnits / r.timeline.writeUnits, 2)} (engine ÷ timeline)`,
      target: '',
    },
    {
      figure,
      measure: 'USD per million events the engine adds (DynamoDB on-demand + Lambda arm64 256 MB)',
      value: r.usdPerMillion.total,
      baseline: `${r.usdPerMillion.dynamodb} DynamoDB + ${r.usdPerMillion.lambda} Lambda`,
      ratio: '',
      target: '',
    },
    {
      figure,
      measure: `backfill players/s (${r.backfill.players} players, a deposit each on the timeline)`,
      value: r.backfill.playersPerSecond,
      baseline: `${r.backfill.baselinePlayersPerSecond} (by-app listing + BatchGet of the profiles)`,
      ratio: `${r.backfill.ratio} (backfill ÷ reads alone)`,
      target: '',
    },
  ];
}

// Run as a figure's process; run.ts imports only the rows above.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  report(await main());
  process.exit(0);
}
