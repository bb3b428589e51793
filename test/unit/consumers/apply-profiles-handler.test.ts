import { beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import type { KinesisStreamBatchResponse, KinesisStreamEvent, KinesisStreamRecord } from 'aws-lambda';
import { makeApplyProfilesHandler, timelineStepItemsOf } from '../../../functions/consumers/apply-profiles/make-handler';
import type { StreamEntry } from '../../../functions/domain/ingest';
import { defaultSearchAttributes } from '../../../functions/domain/player-search';
import { insertIdHash, type StoredProfile } from '../../../functions/domain/profile-state';
import { decodeEnvelope } from '../../../functions/domain/stream-record';
import type { TimelineEntry } from '../../../functions/domain/timeline';
import { logger } from '../../../functions/runtime/logger';
import { streamRecord as supportStreamRecord } from '../../support/kinesis-event';
import { context } from '../../support/lambda';
import { MemoryStream } from '../../support/memory-stream';
import { MemoryPlayerSearch } from '../../support/player-search';
import { dynamoItemBytes, MAX_ITEM_BYTES, MemoryProfiles, MemoryRejectionLog, MemoryTimeline, storedProfile } from '../../support/players';

type Item = Record<string, unknown>;

const SHARD = 'shardId-000000000000';
/** Real Kinesis sequence numbers are 56-digit decimals, beyond a double's precision. */
const BASE_SEQUENCE = 49_659_418_287_166_424_180_426_340_437_516_292_198_866_470_424_436_228_098n;
const seq = (n: number) => (BASE_SEQUENCE + BigInt(n)).toString();
/** Recent, so the insert ids remembered on the profile are inside the 24-hour window. */
const RECEIVED_AT = new Date(Date.now() - 60_000).toISOString();

const streamRecord = (sequence: string, record: Item, receivedAt = RECEIVED_AT): KinesisStreamRecord =>
  supportStreamRecord({ kind: 'profile', record, sequenceNumber: sequence, shardId: SHARD, receivedAt });
const batch = (...records: KinesisStreamRecord[]): KinesisStreamEvent => ({ Records: records });
const profileRecord = (profileId: string, insertId: string, fields: Item = {}): Item => ({
  app_id: 'app_1',
  profile_id: profileId,
  urm_date_time: '2026-11-21T10:00:00Z',
  urm_insert_id: insertId,
  ...fields,
});
const undecodable = (sequence: string) => {
  const garbage = streamRecord(sequence, profileRecord('p-a', 'x'));
  garbage.kinesis.data = Buffer.from('{"v":2}').toString('base64');
  return garbage;
};
const timelineEntry = (pk: string, insertId: string, fields: Partial<TimelineEntry> = {}): TimelineEntry => ({
  pk,
  insert_id: insertId,
  ts: `2026-11-20T09:00:00.000Z#${insertId}`,
  event: 'page_view',
  urm_date_time: '2026-11-20T09:00:00Z',
  received_at: RECEIVED_AT,
  shard: SHARD,
  seq: seq(0),
  attrs: '{}',
  ...fields,
});

let profiles: MemoryProfiles;
let timeline: MemoryTimeline;
let rejections: MemoryRejectionLog;
let stream: MemoryStream;
let handler: (event: KinesisStreamEvent) => Promise<KinesisStreamBatchResponse>;

const stored = (profileId: string) => profiles.stored(`app_1#${profileId}`);
const attributesOf = (profileId: string) => JSON.parse(stored(profileId)!.attrs) as Item;
const profileWrites = () => profiles.puts.map((put) => put.pk).sort();
const batchReads = () => profiles.reads.filter((read) => read.many);
const hashes = (...insertIds: string[]) => insertIds.map(insertIdHash).join('');
const hourOf = (iso: string) => String(Math.floor(Date.parse(iso) / 3_600_000));

/** The profile store, timeline and rejections as they are: what a second delivery must leave alone. */
const snapshot = () => ({
  profiles: [...profiles.items.values()].map((profile) => structuredClone(profile)),
  timeline: timeline.of(),
  rejections: structuredClone(rejections.rejections),
  counts: structuredClone([...profiles.counts]),
});

// Continuations the consumer put on the stream, each under the sequence number the stream gave it, delivered later.
const onStream: KinesisStreamRecord[] = [];
let delivered = 0;
let nextStreamSequence = 1_000_000;
const asDelivered = (entry: StreamEntry): KinesisStreamRecord => {
  const record = supportStreamRecord({ kind: 'profile', record: {}, sequenceNumber: seq(nextStreamSequence++), shardId: SHARD });
  return { ...record, kinesis: { ...record.kinesis, partitionKey: entry.partitionKey, data: Buffer.from(entry.data).toString('base64') } };
};
/** What the stream holds that was not delivered yet. */
const undelivered = () => {
  for (const entry of stream.entries().slice(onStream.length)) onStream.push(asDelivered(entry));
  const fresh = onStream.slice(delivered);
  delivered = onStream.length;
  return fresh;
};

let logError: jest.Spied<(message: string, ...details: unknown[]) => void>;
beforeAll(() => {
  // The logger is the consumer's one shared instance: silence it, and let tests see what it reported.
  logError = jest.spyOn(logger, 'error').mockImplementation(() => {}) as unknown as typeof logError;
  jest.spyOn(logger, 'warn').mockImplementation(() => {});
  jest.spyOn(logger, 'info').mockImplementation(() => {});
});

function consumer(timelineStepItems?: number) {
  return makeApplyProfilesHandler({
    profiles,
    timeline,
    rejections,
    search: { index: new MemoryPlayerSearch(), setting: async () => ({ attributes: defaultSearchAttributes }) },
    stream,
    now: () => new Date(),
    ...(timelineStepItems ? { timelineStepItems } : {}),
  });
}

beforeEach(() => {
  profiles = new MemoryProfiles();
  timeline = new MemoryTimeline();
  rejections = new MemoryRejectionLog();
  stream = new MemoryStream();
  onStream.length = 0;
  delivered = 0;
  logError.mockClear();
  const consume = consumer();
  handler = (event) => consume(event, context());
});

/** Three profiles, four records each, interleaved as a shard delivers them. */
function threeProfilesBatch(): KinesisStreamEvent {
  const perProfile = (id: string) => [
    profileRecord(id, `${id}-1`, { name: `Name of ${id}`, level: 1 }),
    profileRecord(id, `${id}-2`, { urm_add: { level: 2, balance: 0.1 } }),
    profileRecord(id, `${id}-3`, { urm_append: { tags: ['vip'] }, urm_add: { balance: 0.2 } }),
    profileRecord(id, `${id}-4`, { urm_set_if_null: { name: 'ignored', city: 'Lisbon' }, urm_unset: ['level'] }),
  ];
  const [a, b, c] = [perProfile('p-a'), perProfile('p-b'), perProfile('p-c')];
  const records: Item[] = [];
  for (let i = 0; i < 4; i++) records.push(a[i], b[i], c[i]);
  return batch(...records.map((record, i) => streamRecord(seq(i + 1), record)));
}

describe('apply-profiles handler', () => {
  test('a batch of three profiles with four records each is one batch read of the three and one write per profile, each expecting it new', async () => {
    const response = await handler(threeProfilesBatch());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(profiles.reads).toEqual([{ pks: ['app_1#p-a', 'app_1#p-b', 'app_1#p-c'], consistent: false, many: true }]);
    expect(profiles.puts).toEqual(['p-a', 'p-b', 'p-c'].map((id) => ({ pk: `app_1#${id}`, expectedVersion: undefined })));
    expect(timeline.walks).toEqual([]);
    ['p-a', 'p-b', 'p-c'].forEach((id, index) => {
      const { attrs, ...rest } = stored(id)!;
      expect(JSON.parse(attrs)).toEqual({ name: `Name of ${id}`, level: null, balance: 0.3, tags: ['vip'], city: 'Lisbon' });
      expect(rest).toEqual({
        pk: `app_1#${id}`,
        app_id: 'app_1',
        profile_id: id,
        exists: true,
        version: 1,
        updated_at: RECEIVED_AT,
        applied: { [SHARD]: seq(10 + index) },
        recent: { [hourOf(RECEIVED_AT)]: hashes(`${id}-1`, `${id}-2`, `${id}-3`, `${id}-4`) },
      });
    });
  });

  test('the same batch delivered twice is applied once: the second delivery writes nothing', async () => {
    await handler(threeProfilesBatch());
    const afterFirst = snapshot();
    profiles.puts.length = 0;
    profiles.reads.length = 0;

    const response = await handler(threeProfilesBatch());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(batchReads()).toHaveLength(1);
    expect(profiles.puts).toEqual([]);
    expect(snapshot()).toEqual(afterFirst);
  });

  test('when the batch read fails, each profile reads its own and the batch is applied', async () => {
    profiles.failGetMany = new Error('ProvisionedThroughputExceededException: slow down');

    const response = await handler(threeProfilesBatch());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(
      profiles.reads
        .filter((read) => !read.many)
        .flatMap((read) => read.pks)
        .sort(),
    ).toEqual(['app_1#p-a', 'app_1#p-b', 'app_1#p-c']);
    expect(['p-a', 'p-b', 'p-c'].map((id) => stored(id)?.version)).toEqual([1, 1, 1]);
  });

  test('records re-sent by a client with the same insert ids under new sequence numbers change nothing', async () => {
    await handler(threeProfilesBatch());
    const afterFirst = snapshot();
    profiles.puts.length = 0;
    const resentAt = new Date(Date.parse(RECEIVED_AT) + 30_000).toISOString();
    const resent = threeProfilesBatch().Records.map((record, i) => streamRecord(seq(100 + i), decodeEnvelope(record.kinesis.data).record, resentAt));

    const response = await handler(batch(...resent));

    expect(response).toEqual({ batchItemFailures: [] });
    expect(profiles.puts).toEqual([]);
    expect(snapshot()).toEqual(afterFirst);
  });

  test('when another writer changes the profile first, the handler re-reads it consistently and re-applies onto the new state', async () => {
    await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { visits: 1 }))));
    profiles.reads.length = 0;
    profiles.puts.length = 0;
    profiles.beforeNextPut = () => {
      const current = profiles.items.get('app_1#p-a')!;
      profiles.items.set('app_1#p-a', {
        ...current,
        attrs: JSON.stringify({ visits: 10, plan: 'gold' }),
        version: current.version + 1,
        applied: { ...current.applied, 'shardId-000000000001': '7' },
      });
    };

    const response = await handler(
      batch(
        streamRecord(seq(2), profileRecord('p-a', 'a-2', { urm_add: { visits: 1 } })),
        streamRecord(seq(3), profileRecord('p-a', 'a-3', { country: 'PT' })),
      ),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(profiles.reads.map((read) => [read.many, read.consistent])).toEqual([
      [false, false],
      [false, true],
    ]);
    expect(profiles.puts.map((put) => put.expectedVersion)).toEqual([1, 2]);
    const profile = stored('p-a')!;
    expect(profile.version).toBe(3);
    expect(JSON.parse(profile.attrs)).toEqual({ visits: 11, plan: 'gold', country: 'PT' });
    expect(profile.applied).toEqual({ [SHARD]: seq(3), 'shardId-000000000001': '7' });
  });

  test("a profile whose write fails reports its first record's sequence number, and the other profiles are still written", async () => {
    const throttled = Object.assign(new Error('Rate of requests exceeds the allowed throughput'), { name: 'ProvisionedThroughputExceededException' });
    profiles.failing.set('app_1#p-b', throttled);

    const response = await handler(threeProfilesBatch());

    // p-b's records are the 2nd, 5th, 8th and 11th of the batch.
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: seq(2) }] });
    expect(stored('p-b')).toBe(undefined);
    expect(attributesOf('p-a').city).toBe('Lisbon');
    expect(attributesOf('p-c').city).toBe('Lisbon');
    expect(profileWrites()).toEqual(['app_1#p-a', 'app_1#p-b', 'app_1#p-c']);
    expect(logError).toHaveBeenCalledTimes(1);
    const details = logError.mock.calls[0][1] as { error: unknown; first_sequence_number: string; records: number };
    expect(details).toEqual(expect.objectContaining({ error: throttled, first_sequence_number: seq(2), records: 4 }));
  });

  test('a record adding to a string attribute changes nothing, is kept with its reason, and the later records of the profile apply', async () => {
    const rejected = profileRecord('p-a', 'a-2', { urm_add: { name: 1, score: 100 }, city: 'Porto' });

    const response = await handler(
      batch(
        streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann', score: 5 })),
        streamRecord(seq(2), rejected),
        streamRecord(seq(3), profileRecord('p-a', 'a-3', { urm_add: { score: 1 } })),
      ),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(attributesOf('p-a')).toEqual({ name: 'Ann', score: 6 });
    expect(stored('p-a')!.applied[SHARD]).toBe(seq(3));
    expect(profiles.puts).toHaveLength(1);
    expect(rejections.puts).toHaveLength(1);
    const { rejected_at: rejectedAt, ...kept } = rejections.puts[0];
    expect(kept).toEqual({
      app_id: 'app_1',
      profile_id: 'p-a',
      urm_insert_id: 'a-2',
      kind: 'profile',
      shard: SHARD,
      seq: seq(2),
      reason: 'urm_add needs a number, but name is a string',
      record: JSON.stringify(rejected),
      record_truncated: false,
      received_at: RECEIVED_AT,
    });
    expect(Date.parse(rejectedAt) >= Date.parse(RECEIVED_AT)).toBeTruthy();
  });

  test("a rejected record is kept without its push subscriptions, device tokens or proof: the endpoint's host and a token's end remain", async () => {
    const subscription = JSON.stringify({
      endpoint: 'https://fcm.googleapis.com/fcm/send/private-path-123',
      keys: { p256dh: 'BPublicKeyOfTheBrowser', auth: 'authSecret16' },
    });
    const rejected = profileRecord('p-a', 'a-2', {
      urm_add: { name: 1 },
      urm_web_push_notification_token: [subscription],
      urm_unique_append: { urm_android_push_notification_token: ['android-device-token-abc123'], games: ['slots'] },
      urm_set: { urm_ios_push_notification_token: ['ios-device-token-def456'] },
      urm_remove: { urm_web_push_notification_token: [subscription] },
      urm_profile_id_hash: 'ab'.repeat(32),
    });

    await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann' })), streamRecord(seq(2), rejected)));

    const row = rejections.puts[0];
    expect(row.reason).toBe('urm_add needs a number, but name is a string');
    expect(JSON.parse(row.record)).toEqual({
      ...rejected,
      urm_web_push_notification_token: ['<redacted push subscription: fcm.googleapis.com>'],
      urm_unique_append: { urm_android_push_notification_token: ['<redacted device token …abc123>'], games: ['slots'] },
      urm_set: { urm_ios_push_notification_token: ['<redacted device token …def456>'] },
      urm_remove: { urm_web_push_notification_token: ['<redacted push subscription: fcm.googleapis.com>'] },
      urm_profile_id_hash: '<redacted>',
    });
    for (const secret of ['private-path-123', 'BPublicKeyOfTheBrowser', 'authSecret16', 'android-device-token', 'ios-device-token', 'abab']) {
      expect(row.record).not.toContain(secret);
    }
  });

  test('the same failing batch delivered twice leaves one rejection row per rejected or undecodable record', async () => {
    profiles.failing.set('app_1#p-b', new Error('throttled'));
    const failing = () =>
      batch(
        undecodable(seq(1)),
        streamRecord(seq(2), profileRecord('p-b', 'b-1', { name: 'Bo' })),
        streamRecord(seq(3), profileRecord('p-b', 'b-2', { urm_add: { name: 1 } })),
        streamRecord(seq(4), profileRecord('p-a', 'a-1', { name: 'Ann' })),
      );

    const first = await handler(failing());
    const second = await handler(failing());

    expect([first, second]).toEqual([{ batchItemFailures: [{ itemIdentifier: seq(2) }] }, { batchItemFailures: [{ itemIdentifier: seq(2) }] }]);
    expect(rejections.rejections.map((row) => [row.app_id, row.seq])).toEqual([['(undecodable)', seq(1)]]);
  });

  test('a rejection written by an attempt whose profile write failed is taken back, and the retry that applies the record leaves no row', async () => {
    await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { score: 'high' }))));
    profiles.failing.set('app_1#p-a', new Error('throttled'));
    const retried = () => batch(streamRecord(seq(2), profileRecord('p-a', 'a-2', { urm_add: { score: 1 } })));

    const failed = await handler(retried());
    expect(failed).toEqual({ batchItemFailures: [{ itemIdentifier: seq(2) }] });
    // Meanwhile another writer (a record of another shard) makes score a number.
    const current = profiles.items.get('app_1#p-a')!;
    profiles.items.set('app_1#p-a', { ...current, attrs: JSON.stringify({ score: 10 }), version: current.version + 1 });
    profiles.failing.clear();
    const succeeded = await handler(retried());

    expect(succeeded).toEqual({ batchItemFailures: [] });
    expect(attributesOf('p-a')).toEqual({ score: 11 });
    expect(rejections.puts.map((rejection) => rejection.urm_insert_id)).toEqual(['a-2']);
    expect(rejections.rejections).toEqual([]);
  });

  test('a rejection superseded by the re-applying after a conflict is removed before the profile is written', async () => {
    await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { score: 'high' }))));
    profiles.beforeNextPut = () => {
      const current = profiles.items.get('app_1#p-a')!;
      profiles.items.set('app_1#p-a', { ...current, attrs: JSON.stringify({ score: 10 }), version: current.version + 1 });
    };
    const removals = jest.spyOn(rejections, 'remove');
    const writes = jest.spyOn(profiles, 'put');

    const response = await handler(batch(streamRecord(seq(2), profileRecord('p-a', 'a-2', { urm_add: { score: 1 } }))));

    expect(response).toEqual({ batchItemFailures: [] });
    expect(attributesOf('p-a')).toEqual({ score: 11 });
    expect(rejections.rejections).toEqual([]);
    expect(removals).toHaveBeenCalledTimes(1);
    expect(removals.mock.invocationCallOrder[0] < writes.mock.invocationCallOrder[writes.mock.invocationCallOrder.length - 1]).toBeTruthy();
  });

  test('urm_merge reads the sources in one consistent batch, copies only missing attributes and copies the source timeline to the target', async () => {
    await handler(
      batch(
        streamRecord(seq(1), profileRecord('player-1', 't-1', { name: 'Ann', level: 4, urm_unset: ['nickname'], urm_web_push_notification_token: ['tok-b'] })),
        streamRecord(
          seq(2),
          profileRecord('anon-1', 's-1', { name: 'Visitor', nickname: 'v', country: 'FR', level: 1, urm_web_push_notification_token: ['tok-a', 'tok-b'] }),
        ),
      ),
    );
    const sourceBefore = stored('anon-1');
    const sourceEntry = (insertId: string, event: string) => timelineEntry('app_1#anon-1', insertId, { event, attrs: '{"page":"/"}' });
    timeline.seed([sourceEntry('e-1', 'page_view'), sourceEntry('e-2', 'signup_started')]);
    profiles.reads.length = 0;

    const response = await handler(batch(streamRecord(seq(3), profileRecord('player-1', 't-2', { urm_merge: ['anon-1', 'anon-missing'] }))));

    expect(response).toEqual({ batchItemFailures: [] });
    expect(batchReads()).toEqual([{ pks: ['app_1#anon-1', 'app_1#anon-missing'], consistent: true, many: true }]);
    expect(attributesOf('player-1')).toEqual({
      name: 'Ann',
      level: 4,
      nickname: null,
      country: 'FR',
      urm_web_push_notification_token: ['tok-b', 'tok-a'],
    });
    expect(stored('anon-1')).toEqual(sourceBefore);
    expect(timeline.walks.map((walk) => walk.pk)).toEqual(['app_1#anon-1']);
    expect(timeline.writes.flat().sort((a, b) => a.insert_id.localeCompare(b.insert_id))).toEqual([
      { ...sourceEntry('e-1', 'page_view'), pk: 'app_1#player-1', seq: seq(3), merged_from: 'anon-1' },
      { ...sourceEntry('e-2', 'signup_started'), pk: 'app_1#player-1', seq: seq(3), merged_from: 'anon-1' },
    ]);
    expect(timeline.of('app_1#anon-1')).toHaveLength(2);
    expect(timeline.of('app_1#player-1')).toHaveLength(2);
  });

  test("urm_merge keeps the target's own event where a source event has the same insert id: the first stored wins", async () => {
    await handler(batch(streamRecord(seq(1), profileRecord('anon-1', 's-1', { country: 'FR' }))));
    timeline.seed([
      timelineEntry('app_1#anon-1', 'same-id', { event: 'from_the_source' }),
      timelineEntry('app_1#player-1', 'same-id', { event: 'the_targets_own' }),
    ]);

    await handler(batch(streamRecord(seq(3), profileRecord('player-1', 't-1', { urm_merge: ['anon-1'] }))));

    expect(timeline.of('app_1#player-1').map((entry) => [entry.insert_id, entry.event, entry.merged_from])).toEqual([
      ['same-id', 'the_targets_own', undefined],
    ]);
  });

  test('urm_delete_profile empties the profile and removes the timeline entries it covers, walking before and after the tombstone', async () => {
    await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann' }))));
    const entry = (insertId: string, sequence: string) =>
      timelineEntry('app_1#p-a', insertId, {
        ts: `2026-11-21T09:00:00.000Z#${insertId}`,
        event: 'login',
        urm_date_time: '2026-11-21T09:00:00Z',
        seq: sequence,
      });
    timeline.seed([entry('before-1', seq(2)), entry('before-2', seq(3)), entry('after-delete', seq(5))]);

    const response = await handler(batch(streamRecord(seq(4), profileRecord('p-a', 'a-del', { urm_delete_profile: 'profile_id' }))));

    expect(response).toEqual({ batchItemFailures: [] });
    // Once before the tombstone is written, once after it, for events written in between.
    expect(timeline.walks.map((walk) => walk.pk)).toEqual(['app_1#p-a', 'app_1#p-a']);
    expect(timeline.removals).toEqual([
      [
        { pk: 'app_1#p-a', insert_id: 'before-1' },
        { pk: 'app_1#p-a', insert_id: 'before-2' },
      ],
    ]);
    expect(timeline.of('app_1#p-a').map((e) => e.insert_id)).toEqual(['after-delete']);
    const profile = stored('p-a')!;
    expect(profile.exists).toBe(false);
    expect(profile.attrs).toBe('{}');
    expect(profile.version).toBe(2);
    expect(profile.deleted).toEqual({ shard: SHARD, seq: seq(4), at: RECEIVED_AT });
  });

  test('a redelivered record from before a delete does not bring the profile back', async () => {
    const older = streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann' }));
    await handler(batch(older, streamRecord(seq(2), profileRecord('p-a', 'a-del', { urm_delete_profile: 'profile_id' }))));
    const afterDelete = stored('p-a');
    profiles.puts.length = 0;

    const response = await handler(batch(older));

    expect(response).toEqual({ batchItemFailures: [] });
    expect(profiles.puts).toEqual([]);
    expect(stored('p-a')).toEqual(afterDelete);
    expect(stored('p-a')!.exists).toBe(false);
  });

  test('a record after a delete creates a new, empty profile', async () => {
    await handler(
      batch(
        streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann', level: 3 })),
        streamRecord(seq(2), profileRecord('p-a', 'a-del', { urm_delete_profile: 'profile_id' })),
        streamRecord(seq(3), profileRecord('p-a', 'a-3', { level: 1 })),
      ),
    );

    expect(profiles.puts).toHaveLength(1);
    expect(stored('p-a')!.exists).toBe(true);
    expect(attributesOf('p-a')).toEqual({ level: 1 });
  });

  test('a stream record that is not an envelope is kept in the rejections and the rest of the batch applies', async () => {
    const response = await handler(batch(undecodable(seq(1)), streamRecord(seq(2), profileRecord('p-a', 'a-2', { name: 'Ann' }))));

    expect(response).toEqual({ batchItemFailures: [] });
    expect(rejections.puts.map((row) => [row.app_id, row.seq, row.reason])).toEqual([['(undecodable)', seq(1), 'not a urm stream envelope (v1)']]);
    expect(attributesOf('p-a')).toEqual({ name: 'Ann' });
  });

  test("urm_merge sees the source's records that come before it in the same batch", async () => {
    // The push SDK's flow: the visitor's device token goes on the anonymous profile, then sign-in merges it.
    const response = await handler(
      batch(
        streamRecord(seq(1), profileRecord('urm-anon-1', 's-1', { urm_unique_append: { urm_web_push_notification_token: ['tok-a'] } })),
        streamRecord(seq(2), profileRecord('player-1', 't-1', { urm_merge: ['urm-anon-1'] })),
      ),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(attributesOf('urm-anon-1')).toEqual({ urm_web_push_notification_token: ['tok-a'] });
    expect(attributesOf('player-1')).toEqual({ urm_web_push_notification_token: ['tok-a'] });
  });

  test('a profile whose write fails holds back the profiles that merge it in the same batch, and theirs in turn', async () => {
    profiles.failing.set('app_1#anon-1', new Error('throttled'));

    const response = await handler(
      batch(
        streamRecord(seq(1), profileRecord('player-1', 't-1', { level: 1 })),
        streamRecord(seq(2), profileRecord('anon-1', 's-1', { urm_unique_append: { urm_web_push_notification_token: ['tok-a'] } })),
        streamRecord(seq(3), profileRecord('player-1', 't-2', { urm_merge: ['anon-1'] })),
        streamRecord(seq(4), profileRecord('vip-1', 'v-1', { urm_merge: ['player-1'] })),
        streamRecord(seq(5), profileRecord('other-1', 'o-1', { level: 2 })),
      ),
    );

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: seq(1) }, { itemIdentifier: seq(2) }, { itemIdentifier: seq(4) }] });
    expect(profileWrites()).toEqual(['app_1#anon-1', 'app_1#other-1']);
    // The batch's first read only: no held-back profile read the sources of its merge.
    expect(batchReads().map((read) => read.consistent)).toEqual([false]);
    expect(stored('player-1')).toBe(undefined);
    expect(stored('vip-1')).toBe(undefined);
    expect(attributesOf('other-1')).toEqual({ level: 2 });
  });

  test('a record that would grow the attributes beyond the limit is rejected and the later records apply', async () => {
    const response = await handler(
      batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { bio: 'x'.repeat(300_001) })), streamRecord(seq(2), profileRecord('p-a', 'a-2', { level: 1 }))),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(attributesOf('p-a')).toEqual({ level: 1 });
    expect(rejections.puts.map((row) => [row.urm_insert_id, row.reason])).toEqual([['a-1', "the profile's attributes would exceed 300000 bytes"]]);
  });

  test('a record whose multi-byte text would not fit the 400 KB profile item is rejected, and the later records apply', async () => {
    // 150,000 characters, 450,000 bytes in UTF-8: a valid record (under 1 MiB) that no DynamoDB item can hold.
    const response = await handler(
      batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { bio: '€'.repeat(150_000) })), streamRecord(seq(2), profileRecord('p-a', 'a-2', { level: 1 }))),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(attributesOf('p-a')).toEqual({ level: 1 });
    expect(rejections.puts.map((row) => row.urm_insert_id)).toEqual(['a-1']);
  });

  test("a profile's remembered insert ids and its attributes together still fit the 400 KB item", async () => {
    // 20,000 ids (the bound, 220 KB) and 170 KB of attributes: an item that fits, and a 30 KB record within the 300 KB attribute limit.
    const full: StoredProfile = {
      pk: 'app_1#p-a',
      app_id: 'app_1',
      profile_id: 'p-a',
      attrs: JSON.stringify({ bio: 'x'.repeat(170_000) }),
      exists: true,
      version: 1,
      updated_at: RECEIVED_AT,
      applied: { [SHARD]: seq(0) },
      recent: { [hourOf(RECEIVED_AT)]: hashes(...Array.from({ length: 20_000 }, (_, i) => `old-${i}`)) },
    };
    profiles.items.set(full.pk, full);
    expect(dynamoItemBytes(full) < MAX_ITEM_BYTES).toBeTruthy();

    const response = await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { notes: 'y'.repeat(30_000) }))));

    expect(response).toEqual({ batchItemFailures: [] });
    expect(attributesOf('p-a').notes).toBe('y'.repeat(30_000));
  });

  test('an operator sets the timeline step with a positive integer, and a cold start refuses anything else', () => {
    expect(timelineStepItemsOf('500')).toBe(500);
    for (const value of ['0', '-1', '1.5', 'many']) expect(() => timelineStepItemsOf(value)).toThrow('TIMELINE_STEP_ITEMS must be a positive integer');
  });

  describe("the application's players counter", () => {
    const DAY = RECEIVED_AT.slice(0, 10);
    const counts = () => profiles.counts.get('app_1');

    test('a new profile adds one player and one registration on the day it was received; its updates add nothing', async () => {
      await handler(threeProfilesBatch());
      await handler(batch(streamRecord(seq(20), profileRecord('p-a', 'a-later', { level: 9 }))));

      expect(counts()).toEqual({ players: 3, registrations: { [DAY]: 3 } });
      expect(profiles.countMoves).toHaveLength(3);
    });

    test('a delete takes the player away and leaves its registration on its day; a record after it registers the player anew', async () => {
      await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann' })), streamRecord(seq(2), profileRecord('p-b', 'b-1'))));

      await handler(batch(streamRecord(seq(3), profileRecord('p-a', 'a-del', { urm_delete_profile: 'profile_id' }))));
      const afterDelete = structuredClone(counts());
      await handler(batch(streamRecord(seq(4), profileRecord('p-a', 'a-back', { name: 'Ann' }))));

      expect(afterDelete).toEqual({ players: 1, registrations: { [DAY]: 2 } });
      expect(counts()).toEqual({ players: 2, registrations: { [DAY]: 3 } });
    });

    test('a profile made and deleted within one batch, or a delete of a profile that never was, moves nothing', async () => {
      await handler(
        batch(
          streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann' })),
          streamRecord(seq(2), profileRecord('p-a', 'a-del', { urm_delete_profile: 'profile_id' })),
          streamRecord(seq(3), profileRecord('p-z', 'z-del', { urm_delete_profile: 'profile_id' })),
        ),
      );

      expect(counts()).toBeUndefined();
      expect(profiles.countMoves).toEqual([]);
    });

    test('a batch delivered again, and records re-sent with their insert ids, move the counter once', async () => {
      await handler(threeProfilesBatch());
      const resent = threeProfilesBatch().Records.map((record, i) => streamRecord(seq(100 + i), decodeEnvelope(record.kinesis.data).record));

      await handler(threeProfilesBatch());
      await handler(batch(...resent));

      expect(counts()).toEqual({ players: 3, registrations: { [DAY]: 3 } });
    });

    test('a write that fails moves nothing, and its redelivery counts the player once', async () => {
      profiles.failing.set('app_1#p-b', new Error('Lambda timed out'));
      const failed = await handler(threeProfilesBatch());
      const afterFailure = structuredClone(counts());
      profiles.failing.clear();

      await handler(threeProfilesBatch());

      expect(failed.batchItemFailures).toEqual([{ itemIdentifier: seq(2) }]);
      expect(afterFailure).toEqual({ players: 2, registrations: { [DAY]: 2 } });
      expect(counts()).toEqual({ players: 3, registrations: { [DAY]: 3 } });
    });

    test('a profile another writer created first is counted by that writer only: the re-applying is an update', async () => {
      profiles.beforeNextPut = () => {
        void profiles.put(storedProfile('app_1', 'p-a', { name: 'Other' }), undefined, { app_id: 'app_1', players: 1, registered_on: DAY });
      };

      const response = await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { level: 1 }))));

      expect(response).toEqual({ batchItemFailures: [] });
      expect(attributesOf('p-a')).toEqual({ name: 'Other', level: 1 });
      expect(counts()).toEqual({ players: 1, registrations: { [DAY]: 1 } });
    });
  });

  describe('a timeline of 20,000 entries', () => {
    const STEP = 2_000;
    /** A spin a second. */
    const bigTimeline = (profileId: string, count: number, sequence: string) => {
      const start = Date.parse('2026-11-20T09:00:00Z');
      timeline.seed(
        Array.from({ length: count }, (_, i) => {
          const insertId = `old-${String(i).padStart(5, '0')}`;
          const urmDateTime = new Date(start + i * 1000).toISOString();
          return timelineEntry(`app_1#${profileId}`, insertId, { ts: `${urmDateTime}#${insertId}`, event: 'spin', urm_date_time: urmDateTime, seq: sequence });
        }),
      );
    };
    /** Delivers what the consumer put on the stream, batch after batch, until nothing is left; answers each invocation's timeline work. */
    async function drainStream(): Promise<{ read: number; written: number }[]> {
      const invocations: { read: number; written: number }[] = [];
      for (let round = 0; ; round++) {
        const records = undelivered();
        if (records.length === 0) return invocations;
        if (round >= 100) throw new Error('the continuations never end');
        timeline.resetWork();
        expect(await handler(batch(...records))).toEqual({ batchItemFailures: [] });
        invocations.push({ ...timeline.work });
      }
    }
    const continuationIds = () => stream.envelopes().map((envelope) => envelope.record.urm_insert_id);

    test('a delete removes it in steps of at most 2,000 entries read and written per invocation, continued through the stream', async () => {
      await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann' }))));
      bigTimeline('p-a', 20_000, seq(2));
      timeline.seed([timelineEntry('app_1#p-a', 'after-delete', { seq: seq(5) })]);
      timeline.resetWork();

      const response = await handler(batch(streamRecord(seq(4), profileRecord('p-a', 'a-del', { urm_delete_profile: 'profile_id' }))));

      expect(response).toEqual({ batchItemFailures: [] });
      expect(timeline.work.read).toBeLessThanOrEqual(STEP);
      expect(timeline.work.written).toBeLessThanOrEqual(STEP);
      expect(stored('p-a')!.exists).toBe(false);
      expect(stored('p-a')!.deleted).toEqual({ shard: SHARD, seq: seq(4), at: RECEIVED_AT });
      expect(stream.entries().map((entry) => entry.partitionKey)).toEqual(['app_1#p-a']);
      const invocations = await drainStream();
      expect(invocations.length).toBeGreaterThanOrEqual(5);
      expect(invocations.every(({ read, written }) => read <= STEP && written <= STEP)).toBeTruthy();
      expect(timeline.of('app_1#p-a').map((entry) => entry.insert_id)).toEqual(['after-delete']);
      expect(stored('p-a')!.exists).toBe(false);
    });

    test('a merge copies it in steps of at most 2,000 entries read and written per invocation, continued through the stream', async () => {
      await handler(batch(streamRecord(seq(1), profileRecord('anon-1', 's-1', { country: 'FR' }))));
      bigTimeline('anon-1', 20_000, seq(0));
      timeline.resetWork();

      const response = await handler(batch(streamRecord(seq(3), profileRecord('player-1', 't-1', { urm_merge: ['anon-1'] }))));

      expect(response).toEqual({ batchItemFailures: [] });
      expect(timeline.work.read).toBeLessThanOrEqual(STEP);
      expect(timeline.work.written).toBeLessThanOrEqual(STEP);
      expect(attributesOf('player-1')).toEqual({ country: 'FR' });
      const invocations = await drainStream();
      expect(invocations.length).toBeGreaterThanOrEqual(5);
      expect(invocations.every(({ read, written }) => read <= STEP && written <= STEP)).toBeTruthy();
      const copies = timeline.of('app_1#player-1');
      expect(copies).toHaveLength(20_000);
      expect(copies.every((entry) => entry.merged_from === 'anon-1' && entry.seq === seq(3))).toBeTruthy();
      expect(timeline.of('app_1#anon-1')).toHaveLength(20_000);
    });

    test('the step is what the operator set: a smaller one takes more invocations, each within it', async () => {
      const consume = consumer(500);
      handler = (event) => consume(event, context());
      await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann' }))));
      bigTimeline('p-a', 5_000, seq(2));
      timeline.resetWork();

      await handler(batch(streamRecord(seq(4), profileRecord('p-a', 'a-del', { urm_delete_profile: 'profile_id' }))));
      const first = { ...timeline.work };
      const invocations = await drainStream();

      expect([first, ...invocations].every(({ read }) => read <= 500)).toBeTruthy();
      expect(invocations.length).toBeGreaterThanOrEqual(9);
      expect(timeline.of('app_1#p-a')).toEqual([]);
    });

    test('a continuation delivered again, re-sent, or arriving after a later record recreated the profile changes nothing twice', async () => {
      await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann' }))));
      bigTimeline('p-a', 5_000, seq(2));
      await handler(batch(streamRecord(seq(4), profileRecord('p-a', 'a-del', { urm_delete_profile: 'profile_id' }))));
      const [first] = undelivered();
      delivered = 0;
      await handler(batch(streamRecord(seq(6), profileRecord('p-a', 'a-new', { level: 1 }))));
      await drainStream();
      const after = stored('p-a');
      profiles.puts.length = 0;

      // The first continuation again: under its own sequence number, then under a new one.
      const again = { ...first, kinesis: { ...first.kinesis, sequenceNumber: seq(2_000_000) }, eventID: `${SHARD}:${seq(2_000_000)}` };
      expect(await handler(batch(first))).toEqual({ batchItemFailures: [] });
      expect(await handler(batch(again))).toEqual({ batchItemFailures: [] });

      expect(profiles.puts).toEqual([]);
      expect(stored('p-a')).toEqual(after);
      expect(attributesOf('p-a')).toEqual({ level: 1 });
      expect(timeline.of('app_1#p-a')).toEqual([]);
    });

    test('a merge whose target is deleted before its copy ends copies no more, and the delete removes what was copied', async () => {
      await handler(batch(streamRecord(seq(1), profileRecord('anon-1', 's-1', { country: 'FR' }))));
      bigTimeline('anon-1', 6_000, seq(0));
      await handler(batch(streamRecord(seq(3), profileRecord('player-1', 't-1', { urm_merge: ['anon-1'] }))));
      const mergeGoesOn = undelivered();
      expect(mergeGoesOn).toHaveLength(1);

      await handler(batch(streamRecord(seq(4), profileRecord('player-1', 't-del', { urm_delete_profile: 'profile_id' }))));
      const deleteGoesOn = undelivered();
      const writesBefore = timeline.writes.length;
      expect(await handler(batch(...mergeGoesOn, ...deleteGoesOn))).toEqual({ batchItemFailures: [] });
      await drainStream();

      // What is left to do is the delete's sweep: the merge's continuation copies nothing.
      expect(timeline.writes.slice(writesBefore)).toEqual([]);
      expect(timeline.of('app_1#player-1')).toEqual([]);
      expect(stored('player-1')!.exists).toBe(false);
      expect(timeline.of('app_1#anon-1')).toHaveLength(6_000);
    });

    test('when a conflict makes a long delete start again, the continuation it puts twice goes on once', async () => {
      await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann' }))));
      bigTimeline('p-a', 10_000, seq(2));
      profiles.beforeNextPut = () => {
        const current = profiles.items.get('app_1#p-a')!;
        profiles.items.set('app_1#p-a', { ...current, version: current.version + 1 });
      };
      timeline.resetWork();

      const response = await handler(batch(streamRecord(seq(4), profileRecord('p-a', 'a-del', { urm_delete_profile: 'profile_id' }))));

      expect(response).toEqual({ batchItemFailures: [] });
      expect(timeline.work.read).toBeLessThanOrEqual(STEP);
      expect(continuationIds()).toHaveLength(2);
      const [firstTry, secondTry] = continuationIds();
      expect(secondTry).toBe(firstTry);
      await drainStream();
      expect(timeline.of('app_1#p-a')).toEqual([]);
      // One chain: 10,000 entries in steps of 2,000 (the conflict's two puts of step 1 aside), not two chains side by side.
      expect(continuationIds().length).toBeLessThanOrEqual(8);
    });
  });
});
