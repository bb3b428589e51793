import { beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { DynamoDBServiceException, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
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
type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

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
/** For each next BatchWriteCommand call, how many of its last requests DynamoDB leaves unprocessed. */
const unprocessedPlan: number[] = [];

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
  dynamo.on(BatchWriteCommand).callsFake(async (input: BatchWriteCommandInput) => {
    const requests = input.RequestItems![TIMELINE];
    expect(requests.length <= 25).toBeTruthy();
    if (requests.some((request) => request.PutRequest && itemSize(request.PutRequest.Item!) > 400 * 1024)) throw itemTooLarge();
    const left = Math.min(unprocessedPlan.shift() ?? 0, requests.length);
    const processed = requests.slice(0, requests.length - left);
    for (const request of processed) {
      const entry = request.PutRequest!.Item as TimelineEntry;
      timeline.set(timelineKey(entry.pk, entry.insert_id), clone(entry));
    }
    return { UnprocessedItems: left > 0 ? { [TIMELINE]: clone(requests.slice(requests.length - left)) } : {} };
  });
  dynamo.on(PutCommand).callsFake(async (input: PutCommandInput) => {
    expect(input.TableName).toBe(REJECTIONS);
    rejections.push(clone(input.Item!));
    return {};
  });
}

const writeCalls = () => dynamo.commandCalls(BatchWriteCommand).map((call) => call.args[0].input.RequestItems![TIMELINE] as WriteRequest[]);
const written = () => writeCalls().flat().map((request) => request.PutRequest!.Item as TimelineEntry);

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
  unprocessedPlan.length = 0;
  fakeDynamo();
});

describe('record-events handler', () => {
  test('60 events are written in BatchWriteCommand chunks of at most 25, after one read of the deletion marks', async () => {
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
    expect(writeCalls().map((requests) => requests.length)).toEqual([25, 25, 10]);
    expect(timeline.size).toBe(60);
    expect(dynamo).not.toHaveReceivedCommand(PutCommand);
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

  test('items DynamoDB leaves unprocessed are sent again until every entry is written', async () => {
    unprocessedPlan.push(3, 1);

    const response = await handler(batch(...manyEvents(30)), context());

    expect(response).toEqual({ batchItemFailures: [] });
    const calls = writeCalls();
    expect(calls.map((requests) => requests.length)).toEqual([25, 3, 1, 5]);
    expect(calls[1]).toEqual(calls[0].slice(22));
    expect(calls[2]).toEqual(calls[1].slice(2));
    expect(timeline.size).toBe(30);
    expect([...timeline.values()].map((entry) => entry.insert_id).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `e-${i}`).sort());
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

  test('a failed write fails the invocation, so the stream delivers the batch again', async () => {
    dynamo.on(BatchWriteCommand).rejects(new ProvisionedThroughputExceededException({ message: 'Rate exceeded', $metadata: {} }));

    await expect(handler(batch(...manyEvents(3)), context())).rejects.toThrow(ProvisionedThroughputExceededException);

    expect(dynamo).toHaveReceivedCommandTimes(BatchWriteCommand, 1);
    expect(timeline.size).toBe(0);
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
