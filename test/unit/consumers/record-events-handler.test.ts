import { beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { ConditionalCheckFailedException, DynamoDBServiceException, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type BatchGetCommandInput,
  type BatchWriteCommandInput,
  type PutCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { Context, KinesisStreamBatchResponse, KinesisStreamEvent, KinesisStreamRecord } from 'aws-lambda';
import { PUTS_IN_FLIGHT } from '../../../functions/shared/adapters/dynamo-timeline-store';
import { backoffTimer } from '../../../functions/shared/adapters/retry';
import type { StoredProfile } from '../../../functions/shared/domain/profile-state';
import type { TimelineEntry } from '../../../functions/shared/domain/timeline';
import { streamRecord as supportStreamRecord } from '../../support/kinesis-event';
import { context, setFunctionEnv } from '../../support/lambda';

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
const timeline = new Map<string, TimelineEntry>();
const rejections: Item[] = [];
/** Timeline puts under way at once, and the most seen. */
const puts = { inFlight: 0, most: 0 };
/** When set, the n-th timeline put (1-based) fails at once with the error it answers. */
let putFault: ((n: number) => Error | undefined) | undefined;

const clone = <T>(value: T): T => structuredClone(value);
const timelineKey = (pk: string, insertId: string) => `${pk}\u0000${insertId}`;

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
  // Unconditional, as DynamoDB's BatchWriteItem is: a put replaces an item with the same key.
  dynamo.on(BatchWriteCommand).callsFake(async (input: BatchWriteCommandInput) => {
    for (const request of input.RequestItems![TIMELINE]) {
      const entry = request.PutRequest!.Item as TimelineEntry;
      timeline.set(timelineKey(entry.pk, entry.insert_id), clone(entry));
    }
    return { UnprocessedItems: {} };
  });
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
        const entry = input.Item as TimelineEntry;
        const key = timelineKey(entry.pk, entry.insert_id);
        if (input.ConditionExpression === 'attribute_not_exists(pk)' && timeline.has(key)) {
          throw new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
        }
        timeline.set(key, clone(entry));
        return {};
      } finally {
        puts.inFlight--;
      }
    }
    expect(input.TableName).toBe(REJECTIONS);
    rejections.push(clone(input.Item!));
    return {};
  });
}

const timelinePuts = () => dynamo.commandCalls(PutCommand).map((call) => call.args[0].input as PutCommandInput).filter((input) => input.TableName === TIMELINE);
const written = () => timelinePuts().map((input) => input.Item as TimelineEntry);

let handler: Handler;
beforeAll(async () => {
  handler = (await import('../../../functions/record-events/handler')).handler as unknown as Handler;
  // The handler's adapters back off by the default timer: no real waiting in a unit test.
  jest.spyOn(backoffTimer, 'sleep').mockImplementation(async () => {});
  const { logger } = await import('../../../functions/shared/logger');
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
  test('60 events are 60 puts on the condition that their key is new, at most 25 at once, after one read of the deletion marks', async () => {
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
    expect(timelinePuts().length).toBe(60);
    expect(timelinePuts().every((input) => input.ConditionExpression === 'attribute_not_exists(pk)')).toBe(true);
    expect(puts.most).toBe(PUTS_IN_FLIGHT);
    expect(timeline.size).toBe(60);
    expect(dynamo).not.toHaveReceivedCommand(BatchWriteCommand);
    expect(dynamo.commandCalls(GetCommand).length + dynamo.commandCalls(QueryCommand).length).toBe(0);
  });

  test('an event becomes a timeline entry keyed by profile and insert id, with its custom attributes and stream position', async () => {
    await handler(batch(streamRecord(seq(7), eventRecord('p-0', 'e-1', { amount: 5, currency: 'EUR', urm_ip: '203.0.113.9' }))), context());

    expect(timeline.get(timelineKey('app_1#p-0', 'e-1'))).toEqual({
      pk: 'app_1#p-0',
      insert_id: 'e-1',
      ts: '2026-11-21T08:00:00.000Z#e-1',
      event: 'deposit',
      urm_date_time: '2026-11-21T10:00:00+02:00',
      received_at: RECEIVED_AT,
      shard: SHARD,
      seq: seq(7),
      attrs: JSON.stringify({ amount: 5, currency: 'EUR' }),
    });
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
    expect(timeline.size).toBe(2);
  });

  test('an event re-sent in a later batch with the same insert id and other content leaves the first entry as it was', async () => {
    await handler(batch(streamRecord(seq(1), eventRecord('p-0', 'e-1', { amount: 5 }))), context());
    const first = clone(timeline.get(timelineKey('app_1#p-0', 'e-1')));

    const response = await handler(
      batch(streamRecord(seq(2), eventRecord('p-0', 'e-1', { amount: 500 })), streamRecord(seq(3), eventRecord('p-0', 'e-2', { amount: 7 }))),
      context(),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(timeline.get(timelineKey('app_1#p-0', 'e-1'))).toEqual(first);
    expect(JSON.parse(first!.attrs)).toEqual({ amount: 5 });
    expect(JSON.parse(timeline.get(timelineKey('app_1#p-0', 'e-2'))!.attrs)).toEqual({ amount: 7 });
    expect(timeline.size).toBe(2);
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
    expect(written().map((entry) => entry.insert_id)).toEqual(['other-profile', 'after-delete']);
    expect(timeline.has(timelineKey('app_1#p-0', 'redelivered-old'))).toBe(false);
  });

  test('a throttled put fails the invocation, so the stream delivers the batch again, and the puts not yet sent are not sent', async () => {
    putFault = (n) => (n === 3 ? new ProvisionedThroughputExceededException({ message: 'Rate exceeded', $metadata: {} }) : undefined);

    await expect(handler(batch(...manyEvents(60)), context())).rejects.toThrow(ProvisionedThroughputExceededException);

    // The first 25 were under way when the third failed; the 35 queued behind them never went.
    expect(timelinePuts().length).toBe(PUTS_IN_FLIGHT);
    expect(timeline.size).toBe(PUTS_IN_FLIGHT - 1);
    expect(puts.inFlight).toBe(0);
  });

  test('an event too large for a timeline entry is kept in the rejections table and the others are written', async () => {
    const response = await handler(
      batch(streamRecord(seq(1), eventRecord('p-0', 'huge', { note: 'x'.repeat(180_001) })), streamRecord(seq(2), eventRecord('p-0', 'fine'))),
      context(),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect(written().map((entry) => entry.insert_id)).toEqual(['fine']);
    expect(rejections.length).toBe(1);
    expect([rejections[0].urm_insert_id, rejections[0].kind, rejections[0].seq, rejections[0].reason]).toEqual(['huge', 'event', seq(1), 'the event is larger than the 180000-byte limit of a timeline entry']);
    expect(dynamo).toHaveReceivedNthSpecificCommandWith(1, PutCommand, { TableName: REJECTIONS });
  });

  test('an event whose multi-byte text exceeds the item size limit is rejected, not retried forever', async () => {
    // 150,000 characters, 450,000 bytes in UTF-8: within the 1 MiB a record may have, beyond DynamoDB's 400 KB item.
    const response = await handler(
      batch(streamRecord(seq(1), eventRecord('p-0', 'huge', { note: '€'.repeat(150_000) })), streamRecord(seq(2), eventRecord('p-0', 'fine'))),
      context(),
    );

    expect(response).toEqual({ batchItemFailures: [] });
    expect([...timeline.keys()]).toEqual([timelineKey('app_1#p-0', 'fine')]);
    expect(rejections.map((rejection) => rejection.urm_insert_id)).toEqual(['huge']);
  });
});
