import { beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { ConditionalCheckFailedException, DynamoDBServiceException, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type BatchGetCommandInput,
  type DeleteCommandInput,
  type GetCommandInput,
  type PutCommandInput,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { KinesisClient, PutRecordsCommand, type PutRecordsCommandInput } from '@aws-sdk/client-kinesis';
import { mockClient } from 'aws-sdk-client-mock';
import type { Context, KinesisStreamBatchResponse, KinesisStreamEvent, KinesisStreamRecord } from 'aws-lambda';
import { insertIdHash, type StoredProfile } from '../../../functions/domain/profile-state';
import type { TimelineEntry } from '../../../functions/domain/timeline';
import { streamRecord as supportStreamRecord } from '../../support/kinesis-event';
import { context, setFunctionEnv } from '../../support/lambda';
import { TimelinePagesTable } from '../../support/timeline-pages-table';
import { entriesOf, type TimelinePageItem } from '../../../functions/domain/timeline-pages';

const PROFILES = 'profiles-table';
const TIMELINE = 'timeline-table';
const REJECTIONS = 'rejections-table';
process.env.PROFILES_TABLE = PROFILES;
process.env.TIMELINE_TABLE = TIMELINE;
process.env.REJECTIONS_TABLE = REJECTIONS;
process.env.STREAM_NAME = 'ingest-stream';
setFunctionEnv({});

type Handler = (event: KinesisStreamEvent, context: Context) => Promise<KinesisStreamBatchResponse>;
type Item = Record<string, unknown>;

const SHARD = 'shardId-000000000000';
/** Real Kinesis sequence numbers are 56-digit decimals, beyond a double's precision. */
const BASE_SEQUENCE = 49_659_418_287_166_424_180_426_340_437_516_292_198_866_470_424_436_228_098n;
const seq = (n: number) => (BASE_SEQUENCE + BigInt(n)).toString();
/** Recent, so the insert ids remembered on the profile are inside the 24-hour window. */
const RECEIVED_AT = new Date(Date.now() - 60_000).toISOString();

const streamRecord = (sequence: string, record: Item, receivedAt = RECEIVED_AT, kind: 'profile' | 'event' = 'profile'): KinesisStreamRecord =>
  supportStreamRecord({ kind, record, sequenceNumber: sequence, shardId: SHARD, receivedAt });
const batch = (...records: KinesisStreamRecord[]): KinesisStreamEvent => ({ Records: records });
const profileRecord = (profileId: string, insertId: string, fields: Item = {}): Item => ({
  app_id: 'app_1',
  profile_id: profileId,
  urm_date_time: '2026-11-21T10:00:00Z',
  urm_insert_id: insertId,
  ...fields,
});

/** DynamoDB's item size: UTF-8 bytes of names and strings, as the service counts them (close enough for limits). */
function itemSize(item: Item): number {
  const size = (value: unknown): number => {
    if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
    if (typeof value === 'number') return 21;
    if (Array.isArray(value)) return 3 + value.reduce((n: number, v) => n + 1 + size(v), 0);
    if (value !== null && typeof value === 'object') return 3 + itemSize(value as Item) + Object.keys(value).length;
    return 1;
  };
  return Object.entries(item).reduce((n, [name, value]) => n + Buffer.byteLength(name, 'utf8') + size(value), 0);
}
const MAX_ITEM_BYTES = 400 * 1024;

// The ingestion stream: what the consumer puts there (continuations of long work) waits in `streamed` for the next delivery.
const kinesis = mockClient(KinesisClient);
const streamed: KinesisStreamRecord[] = [];
let nextStreamSequence = 1_000_000;

// An in-memory DynamoDB behind the mocked document client: what a PutCommand stores, a later GetCommand reads.
const dynamo = mockClient(DynamoDBDocumentClient);
const profiles = new Map<string, StoredProfile>();
/** Timeline page items the consumer's queries returned, and those it put or deleted (`timeline.work`), since the last reset. */
const timeline = new TimelinePagesTable();
const timelineWork = timeline.work;
const rejections: Item[] = [];
/** Runs inside the next conditional profile write, before its condition is checked: another writer getting there first. */
let beforeNextProfileWrite: (() => void) | undefined;
/** Profile keys whose write fails with a non-condition error. */
const throttledProfiles = new Set<string>();

const clone = <T>(value: T): T => structuredClone(value);
const addTimelineEntry = (entry: TimelineEntry) => timeline.seed([entry]);
const timelineOf = (pk: string) => timeline.entries(pk);
const stored = (profileId: string) => profiles.get(`app_1#${profileId}`);
const attributesOf = (profileId: string) => JSON.parse(stored(profileId)!.attrs) as Item;

function fakeDynamo(): void {
  dynamo.on(GetCommand).callsFake(async (input: GetCommandInput) => {
    if (input.TableName === TIMELINE) return timeline.get(input);
    expect(input.TableName).toBe(PROFILES);
    return { Item: clone(profiles.get(input.Key!.pk as string)) };
  });
  dynamo.on(PutCommand).callsFake(async (input: PutCommandInput) => {
    if (input.TableName === REJECTIONS) {
      // Keyed as the table is: a put with the key of a row replaces it.
      const at = rejections.findIndex((row) => row.app_id === input.Item!.app_id && row.rejection_id === input.Item!.rejection_id);
      if (at >= 0) rejections.splice(at, 1);
      rejections.push(clone(input.Item!));
      return {};
    }
    if (input.TableName === TIMELINE) return timeline.put(input);
    expect(input.TableName).toBe(PROFILES);
    const item = input.Item as StoredProfile;
    const hook = beforeNextProfileWrite;
    beforeNextProfileWrite = undefined;
    hook?.();
    if (throttledProfiles.has(item.pk)) {
      throw new ProvisionedThroughputExceededException({ message: 'Rate of requests exceeds the allowed throughput', $metadata: {} });
    }
    const current = profiles.get(item.pk);
    const holds =
      input.ConditionExpression === 'attribute_not_exists(pk)'
        ? current === undefined
        : input.ConditionExpression === 'version = :expected' && current?.version === input.ExpressionAttributeValues?.[':expected'];
    if (!holds) throw new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
    if (itemSize(item as unknown as Item) > MAX_ITEM_BYTES) {
      throw new DynamoDBServiceException({
        name: 'ValidationException',
        $fault: 'client',
        $metadata: {},
        message: 'Item size has exceeded the maximum allowed size',
      });
    }
    profiles.set(item.pk, clone(item));
    return {};
  });
  dynamo.on(DeleteCommand).callsFake(async (input: DeleteCommandInput) => {
    if (input.TableName === TIMELINE) return timeline.delete(input);
    expect(input.TableName).toBe(REJECTIONS);
    const at = rejections.findIndex((row) => row.app_id === input.Key!.app_id && row.rejection_id === input.Key!.rejection_id);
    if (at >= 0) rejections.splice(at, 1);
    return {};
  });
  dynamo.on(BatchGetCommand).callsFake(async (input: BatchGetCommandInput) => {
    const keys = input.RequestItems![PROFILES].Keys!;
    const found = keys.map((key) => profiles.get(key.pk as string)).filter((item) => item !== undefined);
    return { Responses: { [PROFILES]: clone(found) }, UnprocessedKeys: {} };
  });
  dynamo.on(QueryCommand).callsFake(async (input: QueryCommandInput) => {
    expect(input.TableName).toBe(TIMELINE);
    return timeline.query(input);
  });
}

const inputs = <T>(command: new (input: any) => any) => dynamo.commandCalls(command).map((call) => call.args[0].input as T);
const profileWrites = () => inputs<PutCommandInput>(PutCommand).filter((input) => input.TableName === PROFILES);
const rejectionWrites = () => inputs<PutCommandInput>(PutCommand).filter((input) => input.TableName === REJECTIONS);
const hashes = (...insertIds: string[]) => insertIds.map(insertIdHash).join('');
const hourOf = (iso: string) => String(Math.floor(Date.parse(iso) / 3_600_000));

let handler: Handler;
let logError: jest.Spied<(message: string, ...details: unknown[]) => void>;
beforeAll(async () => {
  handler = (await import('../../../functions/consumers/apply-profiles/handler')).handler as unknown as Handler;
  // The logger is the consumer's one shared instance: silence it, and let tests see what it reported.
  const { logger } = await import('../../../functions/runtime/logger');
  logError = jest.spyOn(logger, 'error').mockImplementation(() => {}) as unknown as typeof logError;
  jest.spyOn(logger, 'warn').mockImplementation(() => {});
});

beforeEach(() => {
  kinesis.reset();
  streamed.length = 0;
  kinesis.on(PutRecordsCommand).callsFake(async (input: PutRecordsCommandInput) => ({
    FailedRecordCount: 0,
    Records: input.Records!.map((entry) => {
      const sequenceNumber = seq(nextStreamSequence++);
      const record = supportStreamRecord({ kind: 'profile', record: {}, sequenceNumber, shardId: SHARD });
      streamed.push({ ...record, kinesis: { ...record.kinesis, partitionKey: entry.PartitionKey!, data: Buffer.from(entry.Data!).toString('base64') } });
      return { SequenceNumber: sequenceNumber, ShardId: SHARD };
    }),
  }));
  dynamo.reset();
  profiles.clear();
  timeline.clear();
  rejections.length = 0;
  beforeNextProfileWrite = undefined;
  throttledProfiles.clear();
  logError.mockClear();
  fakeDynamo();
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
  test('a batch of three profiles with four records each is one batch read of the three and one conditional write per profile', async () => {
    const response = await handler(threeProfilesBatch(), context());

    expect(response).toEqual({ batchItemFailures: [] });
    const reads = inputs<BatchGetCommandInput>(BatchGetCommand);
    expect(reads.length).toBe(1);
    expect(reads[0].RequestItems![PROFILES]!.Keys!.map((key) => key.pk).sort()).toEqual(['app_1#p-a', 'app_1#p-b', 'app_1#p-c']);
    expect(reads[0].RequestItems![PROFILES]!.ConsistentRead).toBe(false);
    const writes = profileWrites();
    expect(writes.length).toBe(3);
    expect(writes.every((input) => input.ConditionExpression === 'attribute_not_exists(pk)')).toBeTruthy();
    expect(dynamo).toHaveReceivedCommandTimes(PutCommand, 3);
    expect(dynamo).not.toHaveReceivedCommand(BatchWriteCommand);
    expect(dynamo).not.toHaveReceivedCommand(GetCommand);
    expect(dynamo).not.toHaveReceivedCommand(QueryCommand);
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
    await handler(threeProfilesBatch(), context());
    const afterFirst = clone([...profiles.entries()]);
    dynamo.resetHistory();

    const response = await handler(threeProfilesBatch(), context());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(dynamo).toHaveReceivedCommandTimes(BatchGetCommand, 1);
    expect(dynamo).not.toHaveReceivedCommand(PutCommand);
    expect([...profiles.entries()]).toEqual(afterFirst);
  });

  test('when the batch read fails, each profile reads its own and the batch is applied', async () => {
    dynamo.on(BatchGetCommand).rejects(new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }));

    const response = await handler(threeProfilesBatch(), context());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(
      inputs<GetCommandInput>(GetCommand)
        .map((input) => input.Key!.pk)
        .sort(),
    ).toEqual(['app_1#p-a', 'app_1#p-b', 'app_1#p-c']);
    expect(['p-a', 'p-b', 'p-c'].map((id) => stored(id)?.version)).toEqual([1, 1, 1]);
  });

  test('records re-sent by a client with the same insert ids under new sequence numbers change nothing', async () => {
    await handler(threeProfilesBatch(), context());
    const afterFirst = clone([...profiles.entries()]);
    dynamo.resetHistory();
    const resentAt = new Date(Date.parse(RECEIVED_AT) + 30_000).toISOString();
    const resent = threeProfilesBatch().Records.map((record, i) =>
      streamRecord(seq(100 + i), JSON.parse(Buffer.from(record.kinesis.data, 'base64').toString()).record, resentAt),
    );

    const response = await handler(batch(...resent), context());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(dynamo).not.toHaveReceivedCommand(PutCommand);
    expect([...profiles.entries()]).toEqual(afterFirst);
  });

  test('when another writer changes the profile first, the handler re-reads it consistently and re-applies onto the new state', async () => {
    await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { visits: 1 }))), context());
    dynamo.resetHistory();
    beforeNextProfileWrite = () => {
      const current = profiles.get('app_1#p-a')!;
      profiles.set('app_1#p-a', {
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
      context(),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(inputs<GetCommandInput>(GetCommand).map((input) => input.ConsistentRead)).toEqual([false, true]);
    expect(profileWrites().map((input) => input.ExpressionAttributeValues)).toEqual([{ ':expected': 1 }, { ':expected': 2 }]);
    const profile = stored('p-a')!;
    expect(profile.version).toBe(3);
    expect(JSON.parse(profile.attrs)).toEqual({ visits: 11, plan: 'gold', country: 'PT' });
    expect(profile.applied).toEqual({ [SHARD]: seq(3), 'shardId-000000000001': '7' });
  });

  test("a profile whose write fails reports its first record's sequence number, and the other profiles are still written", async () => {
    throttledProfiles.add('app_1#p-b');

    const response = await handler(threeProfilesBatch(), context());

    // p-b's records are the 2nd, 5th, 8th and 11th of the batch.
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: seq(2) }] });
    expect(stored('p-b')).toBe(undefined);
    expect(attributesOf('p-a').city).toBe('Lisbon');
    expect(attributesOf('p-c').city).toBe('Lisbon');
    expect(
      profileWrites()
        .map((input) => (input.Item as StoredProfile).pk)
        .sort(),
    ).toEqual(['app_1#p-a', 'app_1#p-b', 'app_1#p-c']);
    expect(logError).toHaveBeenCalledTimes(1);
    const details = logError.mock.calls[0][1] as { error: unknown; first_sequence_number: string; records: number };
    expect(details.first_sequence_number).toBe(seq(2));
    expect(details.records).toBe(4);
    expect(details.error instanceof ProvisionedThroughputExceededException).toBeTruthy();
  });

  test('a record adding to a string attribute changes nothing, is kept with its reason, and the later records of the profile apply', async () => {
    const response = await handler(
      batch(
        streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann', score: 5 })),
        streamRecord(seq(2), profileRecord('p-a', 'a-2', { urm_add: { name: 1, score: 100 }, city: 'Porto' })),
        streamRecord(seq(3), profileRecord('p-a', 'a-3', { urm_add: { score: 1 } })),
      ),
      context(),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(attributesOf('p-a')).toEqual({ name: 'Ann', score: 6 });
    expect(stored('p-a')!.applied[SHARD]).toBe(seq(3));
    expect(profileWrites().length).toBe(1);
    const [rejection] = rejectionWrites();
    expect(rejectionWrites().length).toBe(1);
    expect(rejection.Item!.reason as string).toMatch(/urm_add/);
    expect(rejection.Item!.reason).toBe('urm_add needs a number, but name is a string');
    const { rejected_at: rejectedAt, expires_at: expiresAt, ...kept } = rejection.Item!;
    expect(rejection.TableName).toBe(REJECTIONS);
    expect(kept).toEqual({
      app_id: 'app_1',
      profile_id: 'p-a',
      urm_insert_id: 'a-2',
      kind: 'profile',
      shard: SHARD,
      seq: seq(2),
      reason: 'urm_add needs a number, but name is a string',
      record: JSON.stringify(profileRecord('p-a', 'a-2', { urm_add: { name: 1, score: 100 }, city: 'Porto' })),
      record_truncated: false,
      received_at: RECEIVED_AT,
      rejection_id: `${RECEIVED_AT}#${SHARD}#${seq(2)}`,
    });
    expect(Date.parse(rejectedAt as string) >= Date.parse(RECEIVED_AT)).toBeTruthy();
    expect(expiresAt).toBe(Math.floor(Date.parse(rejectedAt as string) / 1000) + 14 * 86_400);
  });

  test('the same failing batch delivered twice leaves one rejection row per rejected or undecodable record', async () => {
    throttledProfiles.add('app_1#p-b');
    const failing = () => {
      const garbage = streamRecord(seq(1), profileRecord('p-a', 'x'));
      garbage.kinesis.data = Buffer.from('{"v":2}').toString('base64');
      return batch(
        garbage,
        streamRecord(seq(2), profileRecord('p-b', 'b-1', { name: 'Bo' })),
        streamRecord(seq(3), profileRecord('p-b', 'b-2', { urm_add: { name: 1 } })),
        streamRecord(seq(4), profileRecord('p-a', 'a-1', { name: 'Ann' })),
      );
    };

    const first = await handler(failing(), context());
    const second = await handler(failing(), context());

    expect([first, second]).toEqual([{ batchItemFailures: [{ itemIdentifier: seq(2) }] }, { batchItemFailures: [{ itemIdentifier: seq(2) }] }]);
    expect(rejections.map((row) => [row.app_id, row.seq]).sort()).toEqual([['(undecodable)', seq(1)]]);
  });

  test('a rejection written by an attempt whose profile write failed is taken back, and the retry that applies the record leaves no row', async () => {
    await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { score: 'high' }))), context());
    throttledProfiles.add('app_1#p-a');
    const retried = () => batch(streamRecord(seq(2), profileRecord('p-a', 'a-2', { urm_add: { score: 1 } })));

    const failed = await handler(retried(), context());
    expect(failed).toEqual({ batchItemFailures: [{ itemIdentifier: seq(2) }] });
    // Meanwhile another writer (a record of another shard) makes score a number.
    const current = stored('p-a')!;
    profiles.set('app_1#p-a', { ...current, attrs: JSON.stringify({ score: 10 }), version: current.version + 1 });
    throttledProfiles.clear();
    const succeeded = await handler(retried(), context());

    expect(succeeded).toEqual({ batchItemFailures: [] });
    expect(attributesOf('p-a')).toEqual({ score: 11 });
    expect(rejectionWrites().map((input) => input.Item!.urm_insert_id)).toEqual(['a-2']);
    expect(rejections).toEqual([]);
  });

  test('a rejection superseded by the re-applying after a conflict is removed before the profile is written', async () => {
    await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { score: 'high' }))), context());
    dynamo.resetHistory();
    beforeNextProfileWrite = () => {
      const current = profiles.get('app_1#p-a')!;
      profiles.set('app_1#p-a', { ...current, attrs: JSON.stringify({ score: 10 }), version: current.version + 1 });
    };

    const response = await handler(batch(streamRecord(seq(2), profileRecord('p-a', 'a-2', { urm_add: { score: 1 } }))), context());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(attributesOf('p-a')).toEqual({ score: 11 });
    expect(rejections).toEqual([]);
    const order = dynamo.calls().map((call) => {
      const input = call.args[0].input as { TableName?: string };
      return `${call.args[0].constructor.name}:${input.TableName}`;
    });
    expect(order.indexOf(`DeleteCommand:${REJECTIONS}`) < order.lastIndexOf(`PutCommand:${PROFILES}`)).toBeTruthy();
  });

  test('urm_merge reads the sources in one batch, copies only missing attributes and copies the source timeline to the target', async () => {
    await handler(
      batch(
        streamRecord(seq(1), profileRecord('player-1', 't-1', { name: 'Ann', level: 4, urm_unset: ['nickname'], urm_web_push_notification_token: ['tok-b'] })),
        streamRecord(
          seq(2),
          profileRecord('anon-1', 's-1', { name: 'Visitor', nickname: 'v', country: 'FR', level: 1, urm_web_push_notification_token: ['tok-a', 'tok-b'] }),
        ),
      ),
      context(),
    );
    const sourceBefore = clone(stored('anon-1'));
    const sourceEntry = (insertId: string, event: string): TimelineEntry => ({
      pk: 'app_1#anon-1',
      insert_id: insertId,
      ts: `2026-11-20T09:00:00.000Z#${insertId}`,
      event,
      urm_date_time: '2026-11-20T09:00:00Z',
      received_at: RECEIVED_AT,
      shard: SHARD,
      seq: seq(0),
      attrs: '{"page":"/"}',
    });
    addTimelineEntry(sourceEntry('e-1', 'page_view'));
    addTimelineEntry(sourceEntry('e-2', 'signup_started'));
    dynamo.resetHistory();

    const response = await handler(batch(streamRecord(seq(3), profileRecord('player-1', 't-2', { urm_merge: ['anon-1', 'anon-missing'] }))), context());

    expect(response).toEqual({ batchItemFailures: [] });
    const batchGets = inputs<BatchGetCommandInput>(BatchGetCommand);
    expect(batchGets.length).toBe(1);
    expect(batchGets[0].RequestItems![PROFILES].Keys).toEqual([{ pk: 'app_1#anon-1' }, { pk: 'app_1#anon-missing' }]);
    expect(attributesOf('player-1')).toEqual({
      name: 'Ann',
      level: 4,
      nickname: null,
      country: 'FR',
      urm_web_push_notification_token: ['tok-b', 'tok-a'],
    });
    expect(stored('anon-1')).toEqual(sourceBefore);
    // The source walked, then the target's pages around the copies' time looked up (consistently) for insert ids it holds.
    expect(inputs<QueryCommandInput>(QueryCommand).map((input) => [input.TableName, input.ExpressionAttributeValues![':pk'], input.ConsistentRead])).toEqual([
      [TIMELINE, 'app_1#anon-1', undefined],
      [TIMELINE, 'app_1#player-1', true],
    ]);
    const copies = inputs<PutCommandInput>(PutCommand)
      .filter((input) => input.TableName === TIMELINE)
      .flatMap((input) => entriesOf(input.Item as TimelinePageItem));
    expect(copies.sort((a, b) => a.insert_id.localeCompare(b.insert_id))).toEqual([
      { ...sourceEntry('e-1', 'page_view'), pk: 'app_1#player-1', seq: seq(3), merged_from: 'anon-1' },
      { ...sourceEntry('e-2', 'signup_started'), pk: 'app_1#player-1', seq: seq(3), merged_from: 'anon-1' },
    ]);
    expect(timelineOf('app_1#anon-1').length).toBe(2);
    expect(timelineOf('app_1#player-1').length).toBe(2);
  });

  test("urm_merge keeps the target's own event where a source event has the same insert id: the first stored wins", async () => {
    await handler(batch(streamRecord(seq(1), profileRecord('anon-1', 's-1', { country: 'FR' }))), context());
    const shared = (pk: string, event: string): TimelineEntry => ({
      pk,
      insert_id: 'same-id',
      ts: `2026-11-20T09:00:00.000Z#same-id`,
      event,
      urm_date_time: '2026-11-20T09:00:00Z',
      received_at: RECEIVED_AT,
      shard: SHARD,
      seq: seq(0),
      attrs: '{}',
    });
    addTimelineEntry(shared('app_1#anon-1', 'from_the_source'));
    addTimelineEntry(shared('app_1#player-1', 'the_targets_own'));

    await handler(batch(streamRecord(seq(3), profileRecord('player-1', 't-1', { urm_merge: ['anon-1'] }))), context());

    expect(timelineOf('app_1#player-1').map((entry) => [entry.insert_id, entry.event, entry.merged_from])).toEqual([['same-id', 'the_targets_own', undefined]]);
  });

  test('urm_merge reads its sources consistently, so it sees the write it waits for', async () => {
    await handler(batch(streamRecord(seq(1), profileRecord('anon-1', 's-1', { country: 'FR' }))), context());
    dynamo.resetHistory();

    const response = await handler(batch(streamRecord(seq(2), profileRecord('player-1', 't-1', { urm_merge: ['anon-1'] }))), context());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(dynamo).toHaveReceivedCommandTimes(BatchGetCommand, 1);
    expect(dynamo).toHaveReceivedCommandWith(BatchGetCommand, { RequestItems: { [PROFILES]: { Keys: [{ pk: 'app_1#anon-1' }], ConsistentRead: true } } });
    expect(attributesOf('player-1')).toEqual({ country: 'FR' });
  });

  test('urm_delete_profile empties the profile and removes the timeline entries it covers', async () => {
    await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann' }))), context());
    const entry = (insertId: string, sequence: string): TimelineEntry => ({
      pk: 'app_1#p-a',
      insert_id: insertId,
      ts: `2026-11-21T09:00:00.000Z#${insertId}`,
      event: 'login',
      urm_date_time: '2026-11-21T09:00:00Z',
      received_at: RECEIVED_AT,
      shard: SHARD,
      seq: sequence,
      attrs: '{}',
    });
    addTimelineEntry(entry('before-1', seq(2)));
    addTimelineEntry(entry('before-2', seq(3)));
    addTimelineEntry(entry('after-delete', seq(5)));
    dynamo.resetHistory();

    const response = await handler(batch(streamRecord(seq(4), profileRecord('p-a', 'a-del', { urm_delete_profile: 'profile_id' }))), context());

    expect(response).toEqual({ batchItemFailures: [] });
    // Once before the tombstone is written, once after it, for events written in between.
    expect(inputs<QueryCommandInput>(QueryCommand).map((input) => input.ExpressionAttributeValues![':pk'])).toEqual(['app_1#p-a', 'app_1#p-a']);
    // Each seeded entry is a page of its own: the pages left empty are deleted, on the condition that they did not change meanwhile.
    const deletes = inputs<DeleteCommandInput>(DeleteCommand).filter((input) => input.TableName === TIMELINE);
    expect(deletes.map((input) => [input.Key, input.ConditionExpression])).toEqual([
      [{ pk: 'app_1#p-a', sk: '2026-11-21T09:00:00.000Z#before-1' }, 'ev = :ev'],
      [{ pk: 'app_1#p-a', sk: '2026-11-21T09:00:00.000Z#before-2' }, 'ev = :ev'],
    ]);
    expect(timelineOf('app_1#p-a').map((e) => e.insert_id)).toEqual(['after-delete']);
    const profile = stored('p-a')!;
    expect(profile.exists).toBe(false);
    expect(profile.attrs).toBe('{}');
    expect(profile.version).toBe(2);
    expect(profile.deleted).toEqual({ shard: SHARD, seq: seq(4), at: RECEIVED_AT });
  });

  test('a redelivered record from before a delete does not bring the profile back', async () => {
    const older = streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann' }));
    await handler(batch(older, streamRecord(seq(2), profileRecord('p-a', 'a-del', { urm_delete_profile: 'profile_id' }))), context());
    const afterDelete = clone(stored('p-a'));
    dynamo.resetHistory();

    const response = await handler(batch(older), context());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(dynamo).not.toHaveReceivedCommand(PutCommand);
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
      context(),
    );

    expect(profileWrites().length).toBe(1);
    expect(stored('p-a')!.exists).toBe(true);
    expect(attributesOf('p-a')).toEqual({ level: 1 });
  });

  test('a stream record that is not an envelope is kept in the rejections table and the rest of the batch applies', async () => {
    const garbage = streamRecord(seq(1), profileRecord('p-a', 'x'));
    garbage.kinesis.data = Buffer.from('{"v":2}').toString('base64');

    const response = await handler(batch(garbage, streamRecord(seq(2), profileRecord('p-a', 'a-2', { name: 'Ann' }))), context());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(rejectionWrites().map((input) => [input.Item!.app_id, input.Item!.seq, input.Item!.reason])).toEqual([
      ['(undecodable)', seq(1), 'not a urm stream envelope (v1)'],
    ]);
    expect(attributesOf('p-a')).toEqual({ name: 'Ann' });
  });

  test("urm_merge sees the source's records that come before it in the same batch", async () => {
    // The push SDK's flow: the visitor's device token goes on the anonymous profile, then sign-in merges it.
    const response = await handler(
      batch(
        streamRecord(seq(1), profileRecord('urm-anon-1', 's-1', { urm_unique_append: { urm_web_push_notification_token: ['tok-a'] } })),
        streamRecord(seq(2), profileRecord('player-1', 't-1', { urm_merge: ['urm-anon-1'] })),
      ),
      context(),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(attributesOf('urm-anon-1')).toEqual({ urm_web_push_notification_token: ['tok-a'] });
    expect(attributesOf('player-1')).toEqual({ urm_web_push_notification_token: ['tok-a'] });
  });

  test('a profile whose write fails holds back the profiles that merge it in the same batch, and theirs in turn', async () => {
    throttledProfiles.add('app_1#anon-1');

    const response = await handler(
      batch(
        streamRecord(seq(1), profileRecord('player-1', 't-1', { level: 1 })),
        streamRecord(seq(2), profileRecord('anon-1', 's-1', { urm_unique_append: { urm_web_push_notification_token: ['tok-a'] } })),
        streamRecord(seq(3), profileRecord('player-1', 't-2', { urm_merge: ['anon-1'] })),
        streamRecord(seq(4), profileRecord('vip-1', 'v-1', { urm_merge: ['player-1'] })),
        streamRecord(seq(5), profileRecord('other-1', 'o-1', { level: 2 })),
      ),
      context(),
    );

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: seq(1) }, { itemIdentifier: seq(2) }, { itemIdentifier: seq(4) }] });
    expect(
      profileWrites()
        .map((input) => (input.Item as StoredProfile).pk)
        .sort(),
    ).toEqual(['app_1#anon-1', 'app_1#other-1']);
    // The batch's first read only: no held-back profile read the sources of its merge.
    expect(inputs<BatchGetCommandInput>(BatchGetCommand).map((input) => input.RequestItems![PROFILES]!.ConsistentRead)).toEqual([false]);
    expect(stored('player-1')).toBe(undefined);
    expect(stored('vip-1')).toBe(undefined);
    expect(attributesOf('other-1')).toEqual({ level: 2 });
  });

  test('a record that would grow the attributes beyond the limit is rejected and the later records apply', async () => {
    const response = await handler(
      batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { bio: 'x'.repeat(300_001) })), streamRecord(seq(2), profileRecord('p-a', 'a-2', { level: 1 }))),
      context(),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(attributesOf('p-a')).toEqual({ level: 1 });
    expect(rejectionWrites().map((input) => [input.Item!.urm_insert_id, input.Item!.reason])).toEqual([
      ['a-1', "the profile's attributes would exceed 300000 bytes"],
    ]);
  });

  test('a record whose multi-byte text would not fit the 400 KB profile item is rejected, and the later records apply', async () => {
    // 150,000 characters, 450,000 bytes in UTF-8: a valid record (under 1 MiB) that no DynamoDB item can hold.
    const response = await handler(
      batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { bio: '€'.repeat(150_000) })), streamRecord(seq(2), profileRecord('p-a', 'a-2', { level: 1 }))),
      context(),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(attributesOf('p-a')).toEqual({ level: 1 });
    expect(rejectionWrites().map((input) => input.Item!.urm_insert_id)).toEqual(['a-1']);
  });

  test("a profile's remembered insert ids and its attributes together still fit the 400 KB item", async () => {
    // 20,000 ids (the bound, 220 KB) and 170 KB of attributes: an item that fits, and a 30 KB record within the 300 KB attribute limit.
    const hour = hourOf(RECEIVED_AT);
    profiles.set('app_1#p-a', {
      pk: 'app_1#p-a',
      app_id: 'app_1',
      profile_id: 'p-a',
      attrs: JSON.stringify({ bio: 'x'.repeat(170_000) }),
      exists: true,
      version: 1,
      updated_at: RECEIVED_AT,
      applied: { [SHARD]: seq(0) },
      recent: { [hour]: hashes(...Array.from({ length: 20_000 }, (_, i) => `old-${i}`)) },
    });
    expect(itemSize(profiles.get('app_1#p-a') as unknown as Item) < MAX_ITEM_BYTES).toBeTruthy();

    const response = await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { notes: 'y'.repeat(30_000) }))), context());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(attributesOf('p-a').notes).toBe('y'.repeat(30_000));
  });

  describe('a timeline of 20,000 entries', () => {
    const STEP = 2_000;
    /** A spin a second, stored as the event consumer packs them. */
    const bigTimeline = (profileId: string, count: number, sequence: string) => {
      const start = Date.parse('2026-11-20T09:00:00Z');
      timeline.seed(
        Array.from({ length: count }, (_, i) => {
          const insertId = `old-${String(i).padStart(5, '0')}`;
          const urmDateTime = new Date(start + i * 1000).toISOString();
          return {
            pk: `app_1#${profileId}`,
            insert_id: insertId,
            ts: `${urmDateTime}#${insertId}`,
            event: 'spin',
            urm_date_time: urmDateTime,
            received_at: RECEIVED_AT,
            shard: SHARD,
            seq: sequence,
            attrs: '{}',
          };
        }),
      );
    };
    /** Delivers what the consumer put on the stream, batch after batch, until nothing is left; answers each invocation's timeline work. */
    async function drainStream(): Promise<{ read: number; written: number }[]> {
      const invocations: { read: number; written: number }[] = [];
      for (let round = 0; streamed.length > 0; round++) {
        if (round >= 100) throw new Error('the continuations never end');
        const records = streamed.splice(0);
        timelineWork.read = 0;
        timelineWork.written = 0;
        expect(await handler(batch(...records), context())).toEqual({ batchItemFailures: [] });
        invocations.push({ ...timelineWork });
      }
      return invocations;
    }
    const continuationsPut = () => kinesis.commandCalls(PutRecordsCommand).flatMap((call) => call.args[0].input.Records!);

    test('a delete removes it in steps of at most 2,000 items read and written per invocation, continued through the stream', async () => {
      await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann' }))), context());
      bigTimeline('p-a', 20_000, seq(2));
      addTimelineEntry({ ...timeline.entry('app_1#p-a', 'old-00000')!, insert_id: 'after-delete', ts: '2026-11-20T09:00:00.000Z#after-delete', seq: seq(5) });
      timelineWork.read = 0;

      const response = await handler(batch(streamRecord(seq(4), profileRecord('p-a', 'a-del', { urm_delete_profile: 'profile_id' }))), context());

      expect(response).toEqual({ batchItemFailures: [] });
      expect(timelineWork.read).toBeLessThanOrEqual(STEP);
      expect(timelineWork.written).toBeLessThanOrEqual(STEP);
      expect(stored('p-a')!.exists).toBe(false);
      expect(stored('p-a')!.deleted).toEqual({ shard: SHARD, seq: seq(4), at: RECEIVED_AT });
      expect(kinesis).toHaveReceivedCommandWith(PutRecordsCommand, {
        StreamName: 'ingest-stream',
        Records: [expect.objectContaining({ PartitionKey: 'app_1#p-a' })],
      });
      const invocations = await drainStream();
      // Pages of about five of these small entries: 20,000 entries take several steps of at most 2,000 items.
      expect(invocations.length).toBeGreaterThanOrEqual(5);
      expect(invocations.every(({ read, written }) => read <= STEP && written <= STEP)).toBeTruthy();
      expect(timelineOf('app_1#p-a').map((entry) => entry.insert_id)).toEqual(['after-delete']);
      expect(stored('p-a')!.exists).toBe(false);
    });

    test('a merge copies it in steps of at most 2,000 items read and written per invocation, continued through the stream', async () => {
      await handler(batch(streamRecord(seq(1), profileRecord('anon-1', 's-1', { country: 'FR' }))), context());
      bigTimeline('anon-1', 20_000, seq(0));
      timelineWork.read = 0;

      const response = await handler(batch(streamRecord(seq(3), profileRecord('player-1', 't-1', { urm_merge: ['anon-1'] }))), context());

      expect(response).toEqual({ batchItemFailures: [] });
      expect(timelineWork.read).toBeLessThanOrEqual(STEP);
      expect(timelineWork.written).toBeLessThanOrEqual(STEP);
      expect(attributesOf('player-1')).toEqual({ country: 'FR' });
      const invocations = await drainStream();
      expect(invocations.length).toBeGreaterThanOrEqual(5);
      expect(invocations.every(({ read, written }) => read <= STEP && written <= STEP)).toBeTruthy();
      const copies = timelineOf('app_1#player-1');
      expect(copies.length).toBe(20_000);
      expect(copies.every((entry) => entry.merged_from === 'anon-1' && entry.seq === seq(3))).toBeTruthy();
      expect(timelineOf('app_1#anon-1').length).toBe(20_000);
    });

    test('a continuation delivered again, re-sent, or arriving after a later record recreated the profile changes nothing twice', async () => {
      await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann' }))), context());
      bigTimeline('p-a', 5_000, seq(2));
      await handler(batch(streamRecord(seq(4), profileRecord('p-a', 'a-del', { urm_delete_profile: 'profile_id' }))), context());
      const first = clone(streamed[0]);
      await handler(batch(streamRecord(seq(6), profileRecord('p-a', 'a-new', { level: 1 }))), context());
      await drainStream();
      const after = clone(stored('p-a'));
      dynamo.resetHistory();

      // The first continuation again: under its own sequence number, then under a new one.
      const again = { ...first, kinesis: { ...first.kinesis, sequenceNumber: seq(2_000_000) }, eventID: `${SHARD}:${seq(2_000_000)}` };
      expect(await handler(batch(first), context())).toEqual({ batchItemFailures: [] });
      expect(await handler(batch(again), context())).toEqual({ batchItemFailures: [] });

      expect(dynamo).not.toHaveReceivedCommand(PutCommand);
      expect(stored('p-a')).toEqual(after);
      expect(attributesOf('p-a')).toEqual({ level: 1 });
      expect(timelineOf('app_1#p-a')).toEqual([]);
    });

    test('a merge whose target is deleted before its copy ends copies no more, and the delete removes what was copied', async () => {
      await handler(batch(streamRecord(seq(1), profileRecord('anon-1', 's-1', { country: 'FR' }))), context());
      bigTimeline('anon-1', 6_000, seq(0));
      await handler(batch(streamRecord(seq(3), profileRecord('player-1', 't-1', { urm_merge: ['anon-1'] }))), context());
      const mergeGoesOn = streamed.splice(0);
      expect(mergeGoesOn).toHaveLength(1);

      await handler(batch(streamRecord(seq(4), profileRecord('player-1', 't-del', { urm_delete_profile: 'profile_id' }))), context());
      streamed.unshift(...mergeGoesOn);
      dynamo.resetHistory();
      await drainStream();

      // What is left to do is the delete's sweep (page deletions): the merge's continuation copies nothing.
      expect(inputs<PutCommandInput>(PutCommand).filter((input) => input.TableName === TIMELINE)).toEqual([]);
      expect(timelineOf('app_1#player-1')).toEqual([]);
      expect(stored('player-1')!.exists).toBe(false);
      expect(timelineOf('app_1#anon-1').length).toBe(6_000);
    });

    test('when a conflict makes a long delete start again, the continuation it puts twice goes on once', async () => {
      await handler(batch(streamRecord(seq(1), profileRecord('p-a', 'a-1', { name: 'Ann' }))), context());
      bigTimeline('p-a', 10_000, seq(2));
      beforeNextProfileWrite = () => {
        const current = profiles.get('app_1#p-a')!;
        profiles.set('app_1#p-a', { ...current, version: current.version + 1 });
      };

      const response = await handler(batch(streamRecord(seq(4), profileRecord('p-a', 'a-del', { urm_delete_profile: 'profile_id' }))), context());

      expect(response).toEqual({ batchItemFailures: [] });
      expect(timelineWork.read).toBeLessThanOrEqual(STEP);
      expect(continuationsPut().length).toBe(2);
      const [firstTry, secondTry] = continuationsPut().map((entry) => JSON.parse(Buffer.from(entry.Data!).toString('utf8')).record.urm_insert_id);
      expect(secondTry).toBe(firstTry);
      await drainStream();
      expect(timelineOf('app_1#p-a')).toEqual([]);
      // One chain: 10,000 entries in steps of 2,000 (the conflict's two puts of step 1 aside), not two chains side by side.
      expect(continuationsPut().length).toBeLessThanOrEqual(8);
    });
  });
});
