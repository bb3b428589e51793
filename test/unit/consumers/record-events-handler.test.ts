import { beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { DynamoDBServiceException, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type BatchGetCommandInput,
  type PutCommandInput,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { Context, KinesisStreamBatchResponse, KinesisStreamEvent, KinesisStreamRecord } from 'aws-lambda';
import { PUTS_IN_FLIGHT } from '../../../functions/adapters/dynamo-timeline-store';
import { backoffTimer } from '../../../functions/adapters/retry';
import type { StoredProfile } from '../../../functions/domain/profile-state';
import { entriesOf, PAGE_BYTES, pageItemBytes, type TimelinePageItem } from '../../../functions/domain/timeline-pages';
import { streamRecord as supportStreamRecord } from '../../support/kinesis-event';
import { context, setFunctionEnv } from '../../support/lambda';
import { TimelinePagesTable } from '../../support/timeline-pages-table';

const PROFILES = 'profiles-table';
const TIMELINE = 'timeline-table';
const REJECTIONS = 'rejections-table';
process.env.PROFILES_TABLE = PROFILES;
process.env.TIMELINE_TABLE = TIMELINE;
process.env.REJECTIONS_TABLE = REJECTIONS;
setFunctionEnv({});

type Handler = (event: KinesisStreamEvent, context: Context) => Promise<KinesisStreamBatchResponse>;
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
const itemTooLarge = () =>
  new DynamoDBServiceException({ name: 'ValidationException', $fault: 'client', $metadata: {}, message: 'Item size has exceeded the maximum allowed size' });

// An in-memory DynamoDB behind the mocked document client.
const dynamo = mockClient(DynamoDBDocumentClient);
const profiles = new Map<string, Item>();
const timeline = new TimelinePagesTable();
const rejections: Item[] = [];
/** Timeline puts under way at once, and the most seen. */
const puts = { inFlight: 0, most: 0 };
/** When set, the n-th timeline put (1-based) fails at once with the error it answers. */
let putFault: ((n: number) => Error | undefined) | undefined;

const clone = <T>(value: T): T => structuredClone(value);

function fakeDynamo(): void {
  dynamo.on(BatchGetCommand).callsFake(async (input: BatchGetCommandInput) => {
    const { Keys, ProjectionExpression, ExpressionAttributeNames } = input.RequestItems![PROFILES];
    const fields = ProjectionExpression?.split(', ').map((name) => ExpressionAttributeNames![name]);
    const found = Keys!
      .map((key) => profiles.get(key.pk as string))
      .filter((item) => item !== undefined)
      .map((item) => (fields ? Object.fromEntries(Object.entries(item).filter(([name]) => fields.includes(name))) : item));
    return { Responses: { [PROFILES]: clone(found) }, UnprocessedKeys: {} };
  });
  dynamo.on(QueryCommand).callsFake(async (input: QueryCommandInput) => {
    expect(input.TableName).toBe(TIMELINE);
    return timeline.query(input);
  });
  dynamo.on(GetCommand).callsFake(async (input) => timeline.get(input));
  dynamo.on(DeleteCommand).callsFake(async (input) => timeline.delete(input));
  let timelinePutCount = 0;
  dynamo.on(PutCommand).callsFake(async (input: PutCommandInput) => {
    if (input.TableName === TIMELINE) {
      const fault = putFault?.(++timelinePutCount);
      if (fault) throw fault;
      puts.inFlight++;
      puts.most = Math.max(puts.most, puts.inFlight);
      try {
        // A round trip: the other puts of the batch start meanwhile.
        await new Promise((resolve) => setImmediate(resolve));
        if (itemSize(input.Item!) > 400 * 1024) throw itemTooLarge();
        return timeline.put(input);
      } finally {
        puts.inFlight--;
      }
    }
    expect(input.TableName).toBe(REJECTIONS);
    rejections.push(clone(input.Item!));
    return {};
  });
}

const timelinePuts = () =>
  dynamo
    .commandCalls(PutCommand)
    .map((call) => call.args[0].input as PutCommandInput)
    .filter((input) => input.TableName === TIMELINE);
/** The entries the timeline puts carried, in the order put. */
const written = () => timelinePuts().flatMap((input) => entriesOf(input.Item as TimelinePageItem));
const storedIds = () =>
  timeline
    .entries()
    .map((entry) => entry.insert_id)
    .sort();

let handler: Handler;
beforeAll(async () => {
  handler = (await import('../../../functions/consumers/record-events/handler')).handler as unknown as Handler;
  // The handler's adapters back off by the default timer: no real waiting in a unit test.
  jest.spyOn(backoffTimer, 'sleep').mockImplementation(async () => {});
  const { logger } = await import('../../../functions/runtime/logger');
  jest.spyOn(logger, 'error').mockImplementation(() => {});
  jest.spyOn(logger, 'info').mockImplementation(() => {});
});

beforeEach(() => {
  dynamo.reset();
  profiles.clear();
  timeline.clear();
  rejections.length = 0;
  puts.inFlight = 0;
  puts.most = 0;
  putFault = undefined;
  fakeDynamo();
});

describe('record-events handler', () => {
  test('60 events of three profiles are packed into items of at most 1 KB, each profile looked up once, after one read of the deletion marks', async () => {
    const response = await handler(batch(...manyEvents(60)), context());

    expect(response).toEqual({ batchItemFailures: [] });
    const reads = dynamo.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems![PROFILES]);
    expect(reads).toEqual([
      {
        Keys: [{ pk: 'app_1#p-0' }, { pk: 'app_1#p-1' }, { pk: 'app_1#p-2' }],
        ConsistentRead: true,
        ProjectionExpression: '#f0, #f1',
        ExpressionAttributeNames: { '#f0': 'pk', '#f1': 'deleted' },
      },
    ]);
    expect(storedIds()).toEqual(Array.from({ length: 60 }, (_, i) => `e-${i}`).sort());
    // 20 events a profile, three or four to an item.
    expect(timelinePuts().length).toBeLessThanOrEqual(21);
    expect(timelinePuts().every((input) => input.ConditionExpression === 'attribute_not_exists(sk)')).toBe(true);
    expect(timelinePuts().every(({ Item }) => pageItemBytes(Item!.pk as string, Item!.sk as string, Item!.ev as string) <= PAGE_BYTES)).toBe(true);
    expect(puts.most).toBeLessThanOrEqual(PUTS_IN_FLIGHT);
    const lookups = dynamo.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(lookups.map((input) => [input.ExpressionAttributeValues![':pk'], input.ConsistentRead])).toEqual([
      ['app_1#p-0', true],
      ['app_1#p-1', true],
      ['app_1#p-2', true],
    ]);
    expect(dynamo).not.toHaveReceivedCommand(BatchWriteCommand);
    expect(dynamo).not.toHaveReceivedCommand(GetCommand);
  });

  test('an event becomes a timeline entry of its profile, with its insert id, time key, custom attributes and stream position', async () => {
    await handler(batch(streamRecord(seq(7), eventRecord('p-0', 'e-1', { amount: 5, currency: 'EUR', urm_ip: '203.0.113.9' }))), context());

    expect(timeline.entries()).toEqual([
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
      context(),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(written().map((entry) => [entry.insert_id, entry.seq])).toEqual([
      ['same', seq(1)],
      ['other', seq(2)],
    ]);
    expect(timeline.entries().length).toBe(2);
  });

  test('an event re-sent in a later batch with the same insert id and other content leaves the first entry as it was', async () => {
    await handler(batch(streamRecord(seq(1), eventRecord('p-0', 'e-1', { amount: 5 }))), context());
    const first = clone(timeline.entry('app_1#p-0', 'e-1'));

    const response = await handler(
      batch(streamRecord(seq(2), eventRecord('p-0', 'e-1', { amount: 500 })), streamRecord(seq(3), eventRecord('p-0', 'e-2', { amount: 7 }))),
      context(),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(timeline.entry('app_1#p-0', 'e-1')).toEqual(first);
    expect(JSON.parse(first!.attrs)).toEqual({ amount: 5 });
    expect(JSON.parse(timeline.entry('app_1#p-0', 'e-2')!.attrs)).toEqual({ amount: 7 });
    expect(timeline.entries().length).toBe(2);
  });

  test("events from before a profile's delete are dropped, and later ones and other profiles' are kept", async () => {
    const deletedAt = new Date(Date.parse(RECEIVED_AT) - 30_000).toISOString();
    profiles.set('app_1#p-0', {
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
      context(),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(
      written()
        .map((entry) => entry.insert_id)
        .sort(),
    ).toEqual(['after-delete', 'other-profile']);
    expect(timeline.entry('app_1#p-0', 'redelivered-old')).toBeUndefined();
  });

  test('a throttled put fails the invocation and the pages not yet sent are not sent; the batch delivered again completes the timeline once', async () => {
    putFault = (n) => (n === 3 ? new ProvisionedThroughputExceededException({ message: 'Rate exceeded', $metadata: {} }) : undefined);

    await expect(handler(batch(...manyEvents(60)), context())).rejects.toThrow(ProvisionedThroughputExceededException);

    // Three profiles' first pages were under way when the third failed; the pages behind them never went.
    expect(timelinePuts().length).toBe(3);
    expect(timeline.entries().length).toBeLessThan(60);
    expect(puts.inFlight).toBe(0);

    putFault = undefined;
    await expect(handler(batch(...manyEvents(60)), context())).resolves.toEqual({ batchItemFailures: [] });
    expect(storedIds()).toEqual(Array.from({ length: 60 }, (_, i) => `e-${i}`).sort());
  });

  test('an event too large for a timeline entry is kept in the rejections table and the others are written', async () => {
    const response = await handler(
      batch(streamRecord(seq(1), eventRecord('p-0', 'huge', { note: 'x'.repeat(180_001) })), streamRecord(seq(2), eventRecord('p-0', 'fine'))),
      context(),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(written().map((entry) => entry.insert_id)).toEqual(['fine']);
    expect(rejections.length).toBe(1);
    expect([rejections[0].urm_insert_id, rejections[0].kind, rejections[0].seq, rejections[0].reason]).toEqual([
      'huge',
      'event',
      seq(1),
      'the event is larger than the 180000-byte limit of a timeline entry',
    ]);
    expect(dynamo).toHaveReceivedNthSpecificCommandWith(1, PutCommand, { TableName: REJECTIONS });
  });

  test('an event whose multi-byte text exceeds the item size limit is rejected, not retried forever', async () => {
    // 150,000 characters, 450,000 bytes in UTF-8: within the 1 MiB a record may have, beyond DynamoDB's 400 KB item.
    const response = await handler(
      batch(streamRecord(seq(1), eventRecord('p-0', 'huge', { note: '€'.repeat(150_000) })), streamRecord(seq(2), eventRecord('p-0', 'fine'))),
      context(),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(storedIds()).toEqual(['fine']);
    expect(rejections.map((rejection) => rejection.urm_insert_id)).toEqual(['huge']);
  });
});
