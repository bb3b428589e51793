import { beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import type { KinesisStreamBatchResponse, KinesisStreamEvent, KinesisStreamRecord } from 'aws-lambda';
import { makeRecordEventsHandler } from '../../../functions/consumers/record-events/make-handler';
import type { StoredProfile } from '../../../functions/domain/profile-state';
import { logger } from '../../../functions/runtime/logger';
import { streamRecord as supportStreamRecord } from '../../support/kinesis-event';
import { context } from '../../support/lambda';
import { MemoryProfiles, MemoryRejectionLog, MemoryTimeline } from '../../support/players';

type Item = Record<string, unknown>;

const SHARD = 'shardId-000000000000';
/** Real Kinesis sequence numbers are 56-digit decimals, beyond a double's precision. */
const BASE_SEQUENCE = 49_659_418_287_166_424_180_426_340_437_516_292_198_866_470_424_436_228_098n;
const seq = (n: number) => (BASE_SEQUENCE + BigInt(n)).toString();
const RECEIVED_AT = new Date(Date.now() - 60_000).toISOString();

const streamRecord = (sequence: string, record: Item, receivedAt = RECEIVED_AT): KinesisStreamRecord =>
  supportStreamRecord({ kind: 'event', record, sequenceNumber: sequence, shardId: SHARD, receivedAt });
const batch = (...records: KinesisStreamRecord[]): KinesisStreamEvent => ({ Records: records });
const eventRecord = (profileId: string, insertId: string, fields: Item = {}): Item => ({
  app_id: 'app_1',
  profile_id: profileId,
  event: 'deposit',
  urm_date_time: '2026-11-21T10:00:00+02:00',
  urm_insert_id: insertId,
  ...fields,
});
/** `count` events, spread over three profiles, with consecutive sequence numbers from `first`. */
const manyEvents = (count: number, first = 1) =>
  Array.from({ length: count }, (_, i) => streamRecord(seq(first + i), eventRecord(`p-${i % 3}`, `e-${i}`, { amount: i })));

let profiles: MemoryProfiles;
let timeline: MemoryTimeline;
let rejections: MemoryRejectionLog;
let handler: (event: KinesisStreamEvent) => Promise<KinesisStreamBatchResponse>;

/** The entries the timeline was asked to write, in the order asked. */
const written = () => timeline.writes.flat();
const storedIds = () =>
  timeline
    .of()
    .map((entry) => entry.insert_id)
    .sort();

beforeAll(() => {
  jest.spyOn(logger, 'error').mockImplementation(() => {});
  jest.spyOn(logger, 'info').mockImplementation(() => {});
});

beforeEach(() => {
  profiles = new MemoryProfiles();
  timeline = new MemoryTimeline();
  rejections = new MemoryRejectionLog();
  const consume = makeRecordEventsHandler({ profiles, timeline, rejections, now: () => new Date() });
  handler = (event) => consume(event, context());
});

describe('record-events handler', () => {
  test("60 events of three profiles are one write to the timeline, after one consistent read of the profiles' deletion marks", async () => {
    const response = await handler(batch(...manyEvents(60)));

    expect(response).toEqual({ batchItemFailures: [] });
    expect(profiles.reads).toEqual([{ pks: ['app_1#p-0', 'app_1#p-1', 'app_1#p-2'], fields: ['pk', 'deleted'], consistent: true, many: true }]);
    expect(timeline.writes).toHaveLength(1);
    expect(storedIds()).toEqual(Array.from({ length: 60 }, (_, i) => `e-${i}`).sort());
  });

  test('an event becomes a timeline entry of its profile, with its insert id, time key, custom attributes and stream position', async () => {
    await handler(batch(streamRecord(seq(7), eventRecord('p-0', 'e-1', { amount: 5, currency: 'EUR', urm_ip: '203.0.113.9' }))));

    expect(timeline.of()).toEqual([
      {
        pk: 'app_1#p-0',
        insert_id: 'e-1',
        ts: '2026-11-21T08:00:00.000Z#e-1',
        event: 'deposit',
        urm_date_time: '2026-11-21T10:00:00+02:00',
        received_at: RECEIVED_AT,
        shard: SHARD,
        seq: seq(7),
        attrs: JSON.stringify({ amount: 5, currency: 'EUR' }),
      },
    ]);
  });

  test('the same event twice in one batch is written once, as first delivered', async () => {
    const response = await handler(
      batch(
        streamRecord(seq(1), eventRecord('p-0', 'same', { amount: 1 })),
        streamRecord(seq(2), eventRecord('p-0', 'other', { amount: 2 })),
        streamRecord(seq(3), eventRecord('p-0', 'same', { amount: 1 })),
      ),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(written().map((entry) => [entry.insert_id, entry.seq])).toEqual([
      ['same', seq(1)],
      ['other', seq(2)],
    ]);
    expect(timeline.of()).toHaveLength(2);
  });

  test('an event re-sent in a later batch with the same insert id and other content leaves the first entry as it was', async () => {
    await handler(batch(streamRecord(seq(1), eventRecord('p-0', 'e-1', { amount: 5 }))));
    const first = timeline.entry('app_1#p-0', 'e-1');

    const response = await handler(
      batch(streamRecord(seq(2), eventRecord('p-0', 'e-1', { amount: 500 })), streamRecord(seq(3), eventRecord('p-0', 'e-2', { amount: 7 }))),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(timeline.entry('app_1#p-0', 'e-1')).toEqual(first);
    expect(JSON.parse(first!.attrs)).toEqual({ amount: 5 });
    expect(JSON.parse(timeline.entry('app_1#p-0', 'e-2')!.attrs)).toEqual({ amount: 7 });
    expect(timeline.of()).toHaveLength(2);
  });

  test("events from before a profile's delete are dropped, and later ones and other profiles' are kept", async () => {
    const deletedAt = new Date(Date.parse(RECEIVED_AT) - 30_000).toISOString();
    profiles.items.set('app_1#p-0', {
      pk: 'app_1#p-0',
      app_id: 'app_1',
      profile_id: 'p-0',
      attrs: '{}',
      exists: false,
      version: 4,
      updated_at: deletedAt,
      applied: { [SHARD]: seq(10) },
      recent: {},
      deleted: { shard: SHARD, seq: seq(10), at: deletedAt },
    } satisfies StoredProfile);

    const response = await handler(
      batch(
        streamRecord(seq(5), eventRecord('p-0', 'redelivered-old')),
        streamRecord(seq(6), eventRecord('p-1', 'other-profile')),
        streamRecord(seq(11), eventRecord('p-0', 'after-delete')),
      ),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(
      written()
        .map((entry) => entry.insert_id)
        .sort(),
    ).toEqual(['after-delete', 'other-profile']);
    expect(timeline.entry('app_1#p-0', 'redelivered-old')).toBeUndefined();
  });

  test('a failed timeline write fails the invocation; the batch delivered again completes the timeline once', async () => {
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ProvisionedThroughputExceededException' });
    timeline.writeFault = (write) => (write === 1 ? throttled : undefined);

    await expect(handler(batch(...manyEvents(60)))).rejects.toThrow(throttled);
    expect(timeline.of()).toEqual([]);

    await expect(handler(batch(...manyEvents(60)))).resolves.toEqual({ batchItemFailures: [] });
    expect(storedIds()).toEqual(Array.from({ length: 60 }, (_, i) => `e-${i}`).sort());
  });

  test('an event too large for a timeline entry is kept in the rejections before the others are written', async () => {
    const rejectionPut = jest.spyOn(rejections, 'put');
    const timelineWrite = jest.spyOn(timeline, 'writeNew');

    const response = await handler(
      batch(streamRecord(seq(1), eventRecord('p-0', 'huge', { note: 'x'.repeat(180_001) })), streamRecord(seq(2), eventRecord('p-0', 'fine'))),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(written().map((entry) => entry.insert_id)).toEqual(['fine']);
    expect(rejections.puts.map((rejection) => [rejection.urm_insert_id, rejection.kind, rejection.seq, rejection.reason])).toEqual([
      ['huge', 'event', seq(1), 'the event is larger than the 180000-byte limit of a timeline entry'],
    ]);
    expect(rejectionPut.mock.invocationCallOrder[0]).toBeLessThan(timelineWrite.mock.invocationCallOrder[0]);
  });

  test('an event whose multi-byte text exceeds the item size limit is rejected, not retried forever', async () => {
    // 150,000 characters, 450,000 bytes in UTF-8: within the 1 MiB a record may have, beyond DynamoDB's 400 KB item.
    const response = await handler(
      batch(streamRecord(seq(1), eventRecord('p-0', 'huge', { note: '€'.repeat(150_000) })), streamRecord(seq(2), eventRecord('p-0', 'fine'))),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(storedIds()).toEqual(['fine']);
    expect(rejections.puts.map((rejection) => rejection.urm_insert_id)).toEqual(['huge']);
  });
});
