/**
 * Dependency fault: Kinesis refuses some entries of a PutRecords call
 * (ProvisionedThroughputExceededException), as a hot shard does. The real
 * POST /events and POST /profiles handlers must retry exactly the refused
 * entries and answer a receipt whose every entry points at that very record
 * on the stream: none lost, none written twice, order of the receipt = order
 * of the body. /profiles must also store each profile's records in body
 * order, which Kinesis does not keep within one call.
 */
import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { KinesisClient, PutRecordsCommand, type PutRecordsCommandInput, type PutRecordsResultEntry } from '@aws-sdk/client-kinesis';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { tables } from '../../functions/manifest/resources';
import { hashApiKey } from '../../functions/domain/api-keys';
import { decodeEnvelope } from '../../functions/domain/stream-record';
import { apiEvent, context } from '../support/lambda';

// Every table the stack knows, so the handler composes whatever its middlewares read.
for (const table of Object.values(tables)) process.env[table.envVar] = table.localName;
process.env.STREAM_NAME = 'stream';
process.env.SECRETS_PREFIX = '/urm/test';
process.env.AWS_REGION = 'us-east-1';
process.env.AWS_ACCESS_KEY_ID = 'test';
process.env.AWS_SECRET_ACCESS_KEY = 'test';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
const kinesis = mockClient(KinesisClient);
const dynamo = mockClient(DynamoDBDocumentClient);
const KEY = 'server-key';

/** A stream that keeps what it accepts and refuses entries as `refuse` decides. */
class ThrottlingStream {
  stored: { sequenceNumber: string; n: number }[] = [];
  calls = 0;
  refusals = 0;
  private attempts = new Map<number, number>();

  constructor(private readonly refuse: (n: number, attempt: number) => boolean) {}

  putRecords(input: PutRecordsCommandInput) {
    this.calls++;
    let failed = 0;
    const records: PutRecordsResultEntry[] = input.Records!.map((entry) => {
      const n = decodeEnvelope(entry.Data!).record.n as number;
      const attempt = (this.attempts.get(n) ?? 0) + 1;
      this.attempts.set(n, attempt);
      if (this.refuse(n, attempt)) {
        failed++;
        this.refusals++;
        return { ErrorCode: 'ProvisionedThroughputExceededException', ErrorMessage: 'Rate exceeded for shard shardId-000000000000' };
      }
      const sequenceNumber = (49_680_000_000_000_000_000n + BigInt(this.stored.length)).toString();
      this.stored.push({ sequenceNumber, n });
      return { SequenceNumber: sequenceNumber, ShardId: 'shardId-000000000000' };
    });
    return { FailedRecordCount: failed, Records: records, EncryptionType: 'KMS' as const };
  }
}

let events: Handler;
let profiles: Handler;
beforeAll(async () => {
  events = (await import('../../functions/api/ingest-events/handler')).handler as unknown as Handler;
  profiles = (await import('../../functions/api/ingest-profiles/handler')).handler as unknown as Handler;
});

beforeEach(() => {
  kinesis.reset();
  dynamo.reset();
  dynamo.on(GetCommand, { TableName: tables.keys.localName }).resolves({ Item: { key_hash: hashApiKey(KEY), app_id: 'app_1', scope: 'server', key_id: 'k1' } });
});

const body = (count: number) =>
  Array.from({ length: count }, (_, n) => ({
    app_id: 'app_1',
    profile_id: `player-${n % 7}`,
    event: 'spin',
    urm_date_time: '2026-11-21T10:00:00Z',
    urm_insert_id: `insert-${n}`,
    n,
  }));

const post = (records: unknown[], path: '/events' | '/profiles' = '/events') =>
  (path === '/events' ? events : profiles)(
    apiEvent({ path, headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'x-api-key': KEY }, body: JSON.stringify(records) }),
    context(),
  );

/** Profile records of 100 profiles, five each, numbered in body order. */
const PROFILES = 100;
const profileBody = (count: number) =>
  Array.from({ length: count }, (_, n) => ({
    app_id: 'app_1',
    profile_id: `player-${n % PROFILES}`,
    urm_date_time: '2026-11-21T10:00:00Z',
    urm_insert_id: `insert-${n}`,
    n,
  }));

/** Per profile, the numbers of its records in the order the stream stored them. */
function storedOrder(stream: ThrottlingStream): Map<number, number[]> {
  const order = new Map<number, number[]>();
  for (const { n } of stream.stored) order.set(n % PROFILES, [...(order.get(n % PROFILES) ?? []), n]);
  return order;
}

/**
 * Sent, stored and duplicated records, by each record's own number; lost
 * ones are those neither stored nor reported failed in the receipt (a
 * reported one the client re-sends).
 */
function tally(sent: number, stream: ThrottlingStream, receipt: { FailedRecordCount: number; Records: { ErrorCode?: string }[] }) {
  const seen = new Map<number, number>();
  for (const { n } of stream.stored) seen.set(n, (seen.get(n) ?? 0) + 1);
  const duplicated = [...seen.values()].reduce((sum, times) => sum + times - 1, 0);
  const lost = Array.from({ length: sent }, (_, n) => n).filter((n) => !seen.has(n) && !receipt.Records[n]?.ErrorCode).length;
  return {
    sent,
    stored: stream.stored.length,
    putRecordsCalls: stream.calls,
    refusals: stream.refusals,
    reportedFailed: receipt.FailedRecordCount,
    duplicated,
    lost,
  };
}

describe('Kinesis throttling some entries of a request', () => {
  test('refused entries are retried until written, and the receipt points at each record in body order', async () => {
    // A third of the entries refused once, another third twice: within the writer's 4 attempts.
    const stream = new ThrottlingStream((n, attempt) => attempt <= n % 3);
    kinesis.on(PutRecordsCommand).callsFake((input: PutRecordsCommandInput) => stream.putRecords(input));
    const records = body(500);

    const response = await post(records);

    expect(response.statusCode).toBe(200);
    const receipt = JSON.parse(response.body);
    const counts = tally(records.length, stream, receipt);
    console.log(`kinesis throttling, retried: ${JSON.stringify(counts)}`);
    expect(receipt.FailedRecordCount).toBe(0);
    expect(receipt.Records.length).toBe(500);
    const bySequence = new Map(stream.stored.map((s) => [s.sequenceNumber, s.n]));
    receipt.Records.forEach((entry: { SequenceNumber: string }, i: number) => {
      expect(bySequence.get(entry.SequenceNumber)).toBe(i);
    });
    expect(counts.refusals >= 300).toBeTruthy();
    expect(counts.putRecordsCalls).toBe(3);
    expect(counts.duplicated).toBe(0);
    expect(counts.lost).toBe(0);
  });

  test('entries still refused after the bounded retries are reported as failed in place, the rest written once', async () => {
    const alwaysRefused = new Set([3, 250, 499]);
    const stream = new ThrottlingStream((n, attempt) => alwaysRefused.has(n) || attempt <= n % 2);
    kinesis.on(PutRecordsCommand).callsFake((input: PutRecordsCommandInput) => stream.putRecords(input));
    const records = body(500);

    const response = await post(records);

    expect(response.statusCode).toBe(200);
    const receipt = JSON.parse(response.body);
    const counts = tally(records.length, stream, receipt);
    console.log(`kinesis throttling, retries exhausted: ${JSON.stringify(counts)}`);
    expect(receipt.FailedRecordCount).toBe(alwaysRefused.size);
    const bySequence = new Map(stream.stored.map((s) => [s.sequenceNumber, s.n]));
    receipt.Records.forEach((entry: { SequenceNumber?: string; ErrorCode?: string }, i: number) => {
      if (alwaysRefused.has(i)) expect(entry.ErrorCode).toBe('ProvisionedThroughputExceededException');
      else expect(bySequence.get(entry.SequenceNumber!)).toBe(i);
    });
    expect(counts.duplicated).toBe(0);
    expect(counts.stored).toBe(500 - alwaysRefused.size);
    expect(counts.lost).toBe(0);
    expect(counts.putRecordsCalls).toBe(4);
  });
});

describe('Kinesis throttling some records of a /profiles request', () => {
  test("refused records are retried before their profile's next record goes, so each profile's records are stored in body order", async () => {
    const stream = new ThrottlingStream((n, attempt) => attempt <= n % 3);
    kinesis.on(PutRecordsCommand).callsFake((input: PutRecordsCommandInput) => stream.putRecords(input));
    const records = profileBody(500);

    const response = await post(records, '/profiles');

    expect(response.statusCode).toBe(200);
    const receipt = JSON.parse(response.body);
    const counts = tally(records.length, stream, receipt);
    console.log(`kinesis throttling of /profiles, retried: ${JSON.stringify(counts)}`);
    expect(receipt.FailedRecordCount).toBe(0);
    const bySequence = new Map(stream.stored.map((s) => [s.sequenceNumber, s.n]));
    receipt.Records.forEach((entry: { SequenceNumber: string }, i: number) => {
      expect(bySequence.get(entry.SequenceNumber)).toBe(i);
    });
    for (const [profile, order] of storedOrder(stream)) expect(order).toEqual([0, 1, 2, 3, 4].map((round) => round * PROFILES + profile));
    // Five rounds (one record of each profile), each taking its three attempts.
    expect(counts.putRecordsCalls).toBe(15);
    expect(counts.duplicated).toBe(0);
    expect(counts.lost).toBe(0);
  });

  test("a record refused for good fails its profile's later records unsent, so re-sending the failed ones keeps the order", async () => {
    const alwaysRefused = new Set([3, 250, 499]);
    const stream = new ThrottlingStream((n, attempt) => alwaysRefused.has(n) || attempt <= n % 2);
    kinesis.on(PutRecordsCommand).callsFake((input: PutRecordsCommandInput) => stream.putRecords(input));
    const records = profileBody(500);

    const response = await post(records, '/profiles');

    expect(response.statusCode).toBe(200);
    const receipt = JSON.parse(response.body);
    const counts = tally(records.length, stream, receipt);
    console.log(`kinesis throttling of /profiles, retries exhausted: ${JSON.stringify(counts)}`);
    // Profile 3 fails from record 3 on, profile 50 from 250 on; 499 is profile 99's last.
    const heldBack = [103, 203, 303, 403, 350, 450];
    expect(receipt.FailedRecordCount).toBe(alwaysRefused.size + heldBack.length);
    const bySequence = new Map(stream.stored.map((s) => [s.sequenceNumber, s.n]));
    receipt.Records.forEach((entry: { SequenceNumber?: string; ErrorCode?: string; ErrorMessage?: string }, i: number) => {
      if (alwaysRefused.has(i)) expect(entry.ErrorCode).toBe('ProvisionedThroughputExceededException');
      else if (heldBack.includes(i))
        expect(entry).toEqual({
          ErrorCode: 'ProvisionedThroughputExceededException',
          ErrorMessage: `Not written: an earlier record of the same profile ([${i % PROFILES === 3 ? 3 : 250}]) was refused`,
        });
      else expect(bySequence.get(entry.SequenceNumber!)).toBe(i);
    });
    expect(stream.stored.some(({ n }) => heldBack.includes(n))).toBe(false);
    for (const order of storedOrder(stream).values()) expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(counts.duplicated).toBe(0);
    expect(counts.lost).toBe(0);
  });
});
