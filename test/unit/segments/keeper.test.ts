import { beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { makeKeepSegmentsHandler } from '../../../functions/consumers/keep-segments/make-handler';
import { makeRecordEventsHandler } from '../../../functions/consumers/record-events/make-handler';
import { runSegmentTimers, type SegmentTimersDeps } from '../../../functions/scheduled/segment-timers/core';
import type { Condition } from '../../../functions/domain/segments/condition';
import type { SegmentDefinition } from '../../../functions/domain/segments/model';
import { timeKey } from '../../../functions/domain/timeline';
import { logger } from '../../../functions/runtime/logger';
import { MemoryAppStore } from '../../support/affiliates';
import { kinesisEvent, sequenceNumbers, type EventRecordInput } from '../../support/kinesis-event';
import { context } from '../../support/lambda';
import { MemoryStream } from '../../support/memory-stream';
import { MemoryProfiles, MemoryRejectionLog, MemoryTimeline, storedProfile } from '../../support/players';
import { MemorySegmentStateStore } from '../../support/segment-state';
import { MemorySegmentStore } from '../../support/segments';

const APP = 'app_1';
const SHARD = 'shardId-000000000000';
const DAY = 86_400_000;
const LONG_AGO = '2026-01-01T00:00:00.000Z';

let now: Date;
let segments: MemorySegmentStore;
let store: MemorySegmentStateStore;
let profiles: MemoryProfiles;
let timeline: MemoryTimeline;
let stream: MemoryStream;
let consume: (event: KinesisStreamEvent) => Promise<KinesisStreamBatchResponse>;
/** What happens while the consumer waits for the profile consumer (by default: nothing, so the wait runs out). */
let waitWith: () => Promise<void>;

const definition = (segmentId: string, condition: Condition, extra: Partial<SegmentDefinition> = {}): SegmentDefinition => ({
  app_id: APP,
  segment_id: segmentId,
  name: `Segment ${segmentId}`,
  condition,
  version: 1,
  status: 'ready',
  created_at: LONG_AGO,
  updated_at: LONG_AGO,
  updated_by: 'admin-cli',
  backfill: { started_at: LONG_AGO, done: 0 },
  ...extra,
});
const define = (...definitions: SegmentDefinition[]) => {
  for (const d of definitions) segments.definitions.set(`${d.app_id}#${d.segment_id}`, d);
};

let sequence = 1n;
let insert = 0;
type Input = Omit<EventRecordInput, 'sequenceNumber'>;
const event = (profileId: string, name: string, fields: Record<string, unknown> = {}, receivedAt = now.toISOString()): Input => ({
  kind: 'event',
  shardId: SHARD,
  receivedAt,
  record: { app_id: APP, profile_id: profileId, urm_insert_id: `ev-${++insert}`, urm_date_time: now.toISOString(), event: name, ...fields },
});
const profileRecord = (profileId: string, set: Record<string, unknown>): Input => ({
  kind: 'profile',
  shardId: SHARD,
  receivedAt: now.toISOString(),
  record: { app_id: APP, profile_id: profileId, urm_insert_id: `pr-${++insert}`, urm_date_time: now.toISOString(), urm_set: set },
});
/** A batch, with the profile records applied by the profile consumer (unless `pending`). */
function batchOf(records: Input[], options: { pending?: boolean } = {}): KinesisStreamEvent {
  const seqs = sequenceNumbers(records.length, sequence);
  sequence += BigInt(records.length);
  const inputs = records.map((record, i) => ({ ...record, sequenceNumber: seqs[i] }));
  for (const input of inputs) {
    if (input.kind !== 'profile' || options.pending) continue;
    const pk = `${APP}#${input.record.profile_id}`;
    const current = profiles.stored(pk) ?? storedProfile(APP, input.record.profile_id as string);
    const attrs = { ...JSON.parse(current.attrs), ...(input.record.urm_set as object) };
    profiles.add({ ...current, attrs: JSON.stringify(attrs), applied: { [SHARD]: input.sequenceNumber } });
  }
  return kinesisEvent(inputs);
}

const timers = (extra: Partial<SegmentTimersDeps> = {}) =>
  runSegmentTimers({
    definitions: segments,
    states: store,
    profiles,
    timeline,
    stream,
    directory: profiles,
    settings: async () => ({ currency: 'EUR', money_events: { Deposit: 'deposit', Bet: 'bet' } }),
    now: () => now,
    ...extra,
  })();

/** The membership events put on the stream, as [event, profile, segment, insert id, time]. */
const emitted = () =>
  stream.envelopes().map(({ record }) => [record.event, record.profile_id, record.segment_id, record.urm_insert_id, record.urm_date_time] as const);
/** The stream's segment events put through the timeline consumer: what an integrator would read. */
async function onTimeline(profileId: string): Promise<string[]> {
  const record = makeRecordEventsHandler({ profiles, timeline, rejections: new MemoryRejectionLog(), now: () => now });
  const envelopes = stream.envelopes();
  const seqs = sequenceNumbers(envelopes.length, 10_000n);
  await record(
    kinesisEvent(envelopes.map((envelope, i) => ({ kind: 'event', record: envelope.record, sequenceNumber: seqs[i], receivedAt: envelope.received_at }))),
    context(),
  );
  return timeline
    .of(`${APP}#${profileId}`)
    .filter((entry) => entry.event.startsWith('urm_segment'))
    .map((entry) => `${entry.event}@${entry.urm_date_time}`);
}

beforeAll(() => {
  jest.spyOn(logger, 'info').mockImplementation(() => {});
});

beforeEach(() => {
  now = new Date('2026-11-26T12:00:00.000Z');
  segments = new MemorySegmentStore();
  store = new MemorySegmentStateStore(segments);
  profiles = new MemoryProfiles();
  timeline = new MemoryTimeline();
  stream = new MemoryStream();
  const handler = makeKeepSegmentsHandler({
    definitions: segments,
    states: store,
    profiles,
    timeline,
    stream,
    apps: new MemoryAppStore([{ app_id: APP, name: 'Test', created_at: LONG_AGO, currency: 'EUR', money_events: { Deposit: 'deposit', Bet: 'bet' } }]),
    rejections: new MemoryRejectionLog(),
    now: () => now,
    sleep: () => waitWith(),
  });
  waitWith = async () => {};
  consume = (event) => handler(event, context());
});

const depositors = () => definition('depositors', { events: { money: 'deposit' }, measure: 'count', op: 'gte', value: 1 });

describe('the segment consumer', () => {
  test('a deposit makes the player a member and puts one urm_segment_entered on the stream', async () => {
    define(depositors());

    const answer = await consume(batchOf([event('p1', 'Deposit', { amount: 10, currency: 'EUR' })]));

    expect(answer.batchItemFailures).toEqual([]);
    expect(await segments.members(APP, 'depositors', 10)).toEqual({ members: [{ profile_id: 'p1', entered_at: now.toISOString() }] });
    expect(store.size(APP, 'depositors')).toBe(1);
    const [envelope] = stream.envelopes();
    expect(envelope.kind).toBe('event');
    expect(envelope.record).toMatchObject({
      event: 'urm_segment_entered',
      segment_id: 'depositors',
      segment_name: 'Segment depositors',
      segment_version: 1,
      urm_date_time: now.toISOString(),
    });
    expect(store.state(APP, 'p1')?.outbox).toEqual([]);
  });

  test('a redelivered batch changes no membership twice and writes nothing', async () => {
    define(depositors());
    const batch = batchOf([event('p1', 'Deposit', { amount: 10, currency: 'EUR' })]);
    await consume(batch);
    const writes = store.writesMade();

    await consume(batch);

    expect(store.writesMade()).toBe(writes);
    expect(store.size(APP, 'depositors')).toBe(1);
    expect(emitted()).toHaveLength(1);
  });

  test('an event re-sent with the same insert id is counted once', async () => {
    define(definition('twice', { events: { name: 'Login' }, measure: 'count', op: 'gte', value: 2 }));
    const login = event('p1', 'Login');

    await consume(batchOf([login]));
    await consume(batchOf([login]));

    expect(store.size(APP, 'twice')).toBe(0);
    await consume(batchOf([event('p1', 'Login')]));
    expect(store.size(APP, 'twice')).toBe(1);
  });

  test('an application without segments costs no read of states or profiles', async () => {
    await consume(batchOf([event('p1', 'Deposit', { amount: 10, currency: 'EUR' })]));

    expect(store.calls).toEqual([]);
    expect(profiles.reads).toEqual([]);
  });

  test('an event no segment counts costs nothing, and a profile record that changes nothing writes nothing', async () => {
    define(definition('maltese', { attribute: 'country', op: 'equals', value: 'MT' }));
    await consume(batchOf([profileRecord('p1', { country: 'MT' })]));
    const calls = store.calls.length;
    const writes = store.writesMade();

    await consume(batchOf([event('p1', 'PageView')]));
    expect(store.calls.length).toBe(calls);

    await consume(batchOf([profileRecord('p1', { city: 'Valletta' })]));
    expect(store.writesMade()).toBe(writes);
    expect(store.size(APP, 'maltese')).toBe(1);
  });

  test('a profile change makes the player leave, with urm_segment_exited', async () => {
    define(definition('maltese', { attribute: 'country', op: 'equals', value: 'MT' }));
    await consume(batchOf([profileRecord('p1', { country: 'MT' })]));

    await consume(batchOf([profileRecord('p1', { country: 'IE' })]));

    expect(store.size(APP, 'maltese')).toBe(0);
    expect(emitted().map(([name]) => name)).toEqual(['urm_segment_entered', 'urm_segment_exited']);
    expect(new Set(emitted().map(([, , , id]) => id)).size).toBe(2);
  });

  test('a profile record the profile consumer has not applied yet is waited for, within the batch', async () => {
    define(definition('maltese', { attribute: 'country', op: 'equals', value: 'MT' }));
    const batch = batchOf([profileRecord('p1', { country: 'MT' })], { pending: true });
    const record = batch.Records[0].kinesis.sequenceNumber;
    waitWith = async () => profiles.add(storedProfile(APP, 'p1', { country: 'MT' }, { applied: { [SHARD]: record } }));

    const answer = await consume(batch);

    expect(answer.batchItemFailures).toEqual([]);
    expect(store.size(APP, 'maltese')).toBe(1);
    expect(store.state(APP, 'p1')?.awaiting).toBeUndefined();
  });

  test('one the profile consumer is too far behind for is kept due, and evaluated when applied, at its time', async () => {
    define(definition('maltese', { attribute: 'country', op: 'equals', value: 'MT' }));
    const recordTime = now.toISOString();
    const batch = batchOf([profileRecord('p1', { country: 'MT' })], { pending: true });

    const answer = await consume(batch);
    expect(answer.batchItemFailures).toEqual([]);
    expect(store.size(APP, 'maltese')).toBe(0);
    await timers();
    expect(store.size(APP, 'maltese')).toBe(0);

    profiles.add(storedProfile(APP, 'p1', { country: 'MT' }, { applied: { [SHARD]: batch.Records[0].kinesis.sequenceNumber } }));
    now = new Date(now.getTime() + 60_000);
    await timers();

    expect(store.size(APP, 'maltese')).toBe(1);
    expect(emitted()).toEqual([['urm_segment_entered', 'p1', 'maltese', expect.any(String), recordTime]]);
    expect(store.state(APP, 'p1')?.awaiting).toBeUndefined();
  });

  test('the engine never counts its own events', async () => {
    define(definition('busy', { events: { name: 'urm_segment_entered' }, measure: 'count', op: 'gte', value: 1 }));

    await consume(batchOf([event('p1', 'urm_segment_entered', { segment_id: 'x' })]));

    expect(store.calls).toEqual([]);
  });

  test('a crash after the transaction, before the outbox reached the stream, loses no event and duplicates none', async () => {
    define(depositors());
    stream.failure = new Error('stream unreachable');
    const batch = batchOf([event('p1', 'Deposit', { amount: 10, currency: 'EUR' })]);

    const answer = await consume(batch);
    expect(answer.batchItemFailures).toHaveLength(1);
    expect(store.state(APP, 'p1')?.outbox).toHaveLength(1);
    stream.failure = undefined;
    stream.writes.length = 0;

    await timers();
    await consume(batch);

    expect(store.size(APP, 'depositors')).toBe(1);
    expect(store.state(APP, 'p1')?.outbox).toEqual([]);
    expect(await onTimeline('p1')).toEqual([`urm_segment_entered@${now.toISOString()}`]);
  });

  test('a crash after the stream took the events, before the outbox was cleared, puts no second event on the timeline', async () => {
    define(depositors());
    store.beforeWrite = (op) => {
      if (op === 'clearOutbox') throw new Error('killed');
    };
    const batch = batchOf([event('p1', 'Deposit', { amount: 10, currency: 'EUR' })]);
    await consume(batch);
    store.beforeWrite = () => {};

    await timers();

    expect(emitted()).toHaveLength(2);
    expect(await onTimeline('p1')).toEqual([`urm_segment_entered@${now.toISOString()}`]);
    expect(store.state(APP, 'p1')?.outbox).toEqual([]);
  });

  test('counts an event received before the figure was needed from the timeline, one received after live, each once', async () => {
    const since = new Date(now.getTime() - 10 * 60_000).toISOString();
    define(definition('twice', { events: { name: 'Login' }, measure: 'count', op: 'gte', value: 2 }, { backfill: { started_at: since, done: 0 } }));
    const before = new Date(now.getTime() - 20 * 60_000).toISOString();
    const after = new Date(now.getTime() - 60_000).toISOString();
    timeline.seed([
      {
        pk: `${APP}#p1`,
        insert_id: 'old',
        ts: timeKey(before, 'old'),
        event: 'Login',
        urm_date_time: before,
        received_at: before,
        shard: SHARD,
        seq: '1',
        attrs: '{}',
      },
      {
        pk: `${APP}#p1`,
        insert_id: 'new',
        ts: timeKey(after, 'new'),
        event: 'Login',
        urm_date_time: after,
        received_at: after,
        shard: SHARD,
        seq: '999999999999999999999999999999999999999999999999999999999',
        attrs: '{}',
      },
    ]);
    const live = event('p1', 'Login', { urm_insert_id: 'new', urm_date_time: after }, after);

    await consume(batchOf([live]));

    const figure = Object.values(store.state(APP, 'p1')!.aggregates)[0];
    expect(figure.total).toBe('2');
    expect(store.size(APP, 'twice')).toBe(1);
  });
});

describe('the timer', () => {
  const inactive = () => definition('inactive', { last: { name: 'Login' }, not_within_days: 7 });

  test('a player whose last Login grows 7 days old enters "no Login for 7 days" with no event, at that moment', async () => {
    define(inactive());
    const lastLogin = new Date(now.getTime() - 7 * DAY + 30_000);
    await consume(batchOf([event('p1', 'Login', { urm_date_time: lastLogin.toISOString() })]));
    expect(store.size(APP, 'inactive')).toBe(0);

    await timers();
    expect(store.size(APP, 'inactive')).toBe(0);
    now = new Date(now.getTime() + 31_000);
    await timers();

    expect(store.size(APP, 'inactive')).toBe(1);
    const due = new Date(lastLogin.getTime() + 7 * DAY).toISOString();
    expect(emitted()).toEqual([['urm_segment_entered', 'p1', 'inactive', expect.any(String), due]]);
    expect(store.state(APP, 'p1')?.next_at).toBeUndefined();
  });

  test('a Login makes the player leave it again, live', async () => {
    define(inactive());
    await consume(batchOf([event('p1', 'Login', { urm_date_time: new Date(now.getTime() - 8 * DAY).toISOString() })]));
    await timers();
    expect(store.size(APP, 'inactive')).toBe(1);

    await consume(batchOf([event('p1', 'Login')]));

    expect(store.size(APP, 'inactive')).toBe(0);
    expect(emitted().map(([name]) => name)).toEqual(['urm_segment_entered', 'urm_segment_exited']);
  });

  test("a Login followed on the stream by the engine's own earlier event makes the player leave at the Login's time", async () => {
    define(inactive());
    const longAgo = new Date(now.getTime() - 8 * DAY).toISOString();
    await consume(batchOf([event('p1', 'Login', { urm_date_time: longAgo })]));
    const [entered] = stream.envelopes();
    expect(entered.record.urm_date_time).toBe(longAgo);

    // The stream took the player's next Login before the engine's urm_segment_entered of the first.
    await consume(batchOf([event('p1', 'Login'), { kind: 'event', shardId: SHARD, receivedAt: now.toISOString(), record: entered.record }]));

    expect(store.size(APP, 'inactive')).toBe(0);
    expect(emitted().map(([name, , , , at]) => [name, at])).toEqual([
      ['urm_segment_entered', longAgo],
      ['urm_segment_exited', now.toISOString()],
    ]);
  });

  test('a run with nothing due writes nothing', async () => {
    define(inactive());
    await consume(batchOf([event('p1', 'Login')]));
    const writes = store.writesMade();

    await timers();

    expect(store.writesMade()).toBe(writes);
  });
});

describe('the backfill', () => {
  const bigDepositors = (startedAt: string) =>
    definition(
      'big',
      { lifecycle: 'lifetime_deposits', op: 'gte', value: '100' },
      { status: 'backfilling', created_at: startedAt, updated_at: startedAt, backfill: { started_at: startedAt, done: 0 } },
    );
  const seedPlayers = () => {
    for (const [id, amount] of [
      ['a', 150],
      ['b', 20],
      ['c', 100],
    ] as const) {
      profiles.add(storedProfile(APP, id));
      timeline.add(id, 'Deposit', '2026-11-01T10:00:00.000Z', { amount, currency: 'EUR' });
    }
  };

  test('waits for the pipeline margin, then evaluates every player silently and makes the segment ready', async () => {
    seedPlayers();
    define(bigDepositors(new Date(now.getTime() - 30_000).toISOString()));

    await timers();
    expect(segments.definitions.get(`${APP}#big`)?.status).toBe('backfilling');

    now = new Date(now.getTime() + 60_000);
    await timers();

    const big = segments.definitions.get(`${APP}#big`)!;
    expect(big.status).toBe('ready');
    expect(big.backfill).toMatchObject({ done: 3, total: 3, finished_at: now.toISOString() });
    expect((await segments.members(APP, 'big', 10)).members.map((m) => m.profile_id)).toEqual(['a', 'c']);
    expect(store.size(APP, 'big')).toBe(2);
    expect(stream.entries()).toEqual([]);
  });

  test('goes on from its cursor after a stop, and evaluating a player again changes nothing', async () => {
    seedPlayers();
    define(bigDepositors(new Date(now.getTime() - 10 * 60_000).toISOString()));
    // Time runs out once the first page's progress is saved.
    await timers({ pageSize: 2, remainingMs: () => (store.calls.some((call) => call.op === 'saveBackfill') ? 0 : 60_000) });
    expect(segments.definitions.get(`${APP}#big`)?.backfill).toMatchObject({ done: 2, cursor: 'b' });
    const writes = store.writesMade();

    // As after a crash before the cursor was saved: the page again.
    const big = segments.definitions.get(`${APP}#big`)!;
    segments.definitions.set(`${APP}#big`, { ...big, backfill: { started_at: big.backfill!.started_at, done: 0 } });
    await timers({ pageSize: 2 });

    expect(segments.definitions.get(`${APP}#big`)?.status).toBe('ready');
    expect(store.size(APP, 'big')).toBe(2);
    // a and b again (no write), c (one), the progress twice and ready.
    expect(store.writesMade() - writes).toBe(1 + 2);
  });

  test('a backfilling segment is kept live only for players the backfill has evaluated', async () => {
    profiles.add(storedProfile(APP, 'a'));
    define(bigDepositors(now.toISOString()));

    await consume(batchOf([event('a', 'Deposit', { amount: 500, currency: 'EUR' })]));

    expect(store.size(APP, 'big')).toBe(0);
    expect(emitted()).toEqual([]);
  });
});
