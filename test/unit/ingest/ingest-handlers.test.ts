import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { KinesisClient, PutRecordsCommand, type PutRecordsCommandInput } from '@aws-sdk/client-kinesis';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { acceptedPutRecords, apiEvent, context, keysByHash, type ProxyHandler, setFunctionEnv } from '../../support/lambda';

setFunctionEnv({ KEYS_TABLE: 'keys', APPS_TABLE: 'apps', STREAM_NAME: 'stream', SECRETS_PREFIX: '/urm/test' });

type Handler = ProxyHandler;
const kinesis = mockClient(KinesisClient);
const dynamo = mockClient(DynamoDBDocumentClient);

const keys: Record<string, object> = {
  'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k1' },
  'revoked-key': { app_id: 'app_1', scope: 'server', key_id: 'k2', revoked_at: '2026-01-01T00:00:00Z' },
  'browser-key': { app_id: 'app_1', scope: 'browser', key_id: 'k3' },
  'comms-key': { app_id: 'app_1', scope: 'comms', key_id: 'k4' },
};
const byHash = keysByHash(keys);

let events: Handler;
let profiles: Handler;
beforeAll(async () => {
  events = (await import('../../../functions/api/ingest-events/handler')).handler as unknown as Handler;
  profiles = (await import('../../../functions/api/ingest-profiles/handler')).handler as unknown as Handler;
});

beforeEach(() => {
  kinesis.reset();
  dynamo.reset();
  dynamo.on(GetCommand).callsFake((input: { Key: { key_hash: string } }) => ({ Item: byHash.get(input.Key.key_hash) }));
  kinesis.on(PutRecordsCommand).callsFake(acceptedPutRecords);
});

const headers = (key: string | null) => ({
  'Content-Type': 'application/json',
  Accept: 'application/json',
  ...(key ? { 'X-Api-Key': key } : {}),
});
const event = { app_id: 'app_1', profile_id: 'player-1', event: 'deposit', urm_date_time: '2026-11-21T10:00:00Z', amount: 5 };
const post = (handler: Handler, body: unknown, key: string | null = 'server-key', extra: Record<string, string> = {}) =>
  handler(apiEvent({ path: '/events', headers: { ...headers(key), ...extra }, body: typeof body === 'string' ? body : JSON.stringify(body) }), context());
const sent = () => kinesis.commandCalls(PutRecordsCommand).map((call) => call.args[0].input as PutRecordsCommandInput);

describe('POST /events handler', () => {
  test('writes each record to the stream under app#profile and answers the receipt', async () => {
    const response = await post(events, [event, { ...event, profile_id: 'player-2', urm_insert_id: 'mine' }]);

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({
      EncryptionType: 'NONE',
      FailedRecordCount: 0,
      Records: [
        { SequenceNumber: '49680', ShardId: 'shardId-000000000001' },
        { SequenceNumber: '49681', ShardId: 'shardId-000000000001' },
      ],
    });
    const [call] = sent();
    expect(call.StreamName).toBe('stream');
    expect(call.Records!.map((r) => r.PartitionKey)).toEqual(['app_1#player-1', 'app_1#player-2']);
    const envelopes = call.Records!.map((r) => JSON.parse(Buffer.from(r.Data!).toString()));
    expect(envelopes[0].kind).toBe('event');
    expect(envelopes[0].record.urm_insert_id).toMatch(/^urm-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(envelopes[1].record.urm_insert_id).toBe('mine');
    expect(envelopes[0].record.amount).toBe(5);
  });

  for (const [name, key] of [
    ['without a key', null],
    ['with an unknown key', 'nope'],
    ['with a revoked key', 'revoked-key'],
    ['with a browser key', 'browser-key'],
    ['with a comms key', 'comms-key'],
  ] as const) {
    test(`answers 403 Forbidden ${name} and writes nothing`, async () => {
      const response = await post(events, [event], key);

      expect(response.statusCode).toBe(403);
      expect(JSON.parse(response.body)).toEqual({ message: 'Forbidden' });
      expect(sent().length).toBe(0);
    });
  }

  test("answers 403 when a record names another application's app_id", async () => {
    const response = await post(events, [event, { ...event, app_id: 'app_2' }]);

    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ message: 'Forbidden' });
    expect(sent().length).toBe(0);
  });

  test('answers 400 naming the record and field, and writes nothing, when one record is invalid', async () => {
    const response = await post(events, [event, { ...event, urm_date_time: 'yesterday' }]);

    expect(response.statusCode).toBe(400);
    const body = JSON.parse(response.body);
    expect(body.message).toBe('request body is invalid');
    expect(body.errors).toEqual(['[1].urm_date_time must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T12:00:00Z']);
    expect(sent().length).toBe(0);
  });

  test('answers 400 for a body that is not JSON', async () => {
    const response = await post(events, '[{"app_id":');

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ message: 'request body is invalid', errors: ['request body must be valid JSON'] });
  });

  test('answers 413 naming the limit for a body over 4 MiB, before parsing it', async () => {
    const response = await post(events, `[${' '.repeat(4 * 1024 * 1024)}]`);

    expect(response.statusCode).toBe(413);
    expect(JSON.parse(response.body)).toEqual({ message: 'request body must be at most 4 MiB' });
  });

  test('answers 400 for a record over 1 MiB', async () => {
    const response = await post(events, [{ ...event, blob: 'x'.repeat(1024 * 1024) }]);

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).errors).toEqual(['[0] is larger than the 1 MiB limit of one record']);
    expect(sent().length).toBe(0);
  });

  test('answers 415 when the Content-Type is not JSON', async () => {
    const response = await post(events, [event], 'server-key', { 'Content-Type': 'text/plain' });

    expect(response.statusCode).toBe(415);
    expect(JSON.parse(response.body)).toEqual({ message: 'Content-Type must be application/json' });
  });

  test('answers 406 when Accept does not allow JSON', async () => {
    const response = await post(events, [event], 'server-key', { Accept: 'text/html' });

    expect(response.statusCode).toBe(406);
  });

  test('answers 500 without internals when the stream cannot be written', async () => {
    kinesis.on(PutRecordsCommand).rejects(new Error('AccessDeniedException: arn:aws:iam::123:role/secret'));

    const response = await post(events, [event]);

    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ message: 'internal server error' });
  });
});

describe('POST /profiles handler', () => {
  const profile = { app_id: 'app_1', profile_id: 'player-1', urm_date_time: '2026-11-21T10:00:00Z' };

  test('writes profile records with kind "profile"', async () => {
    const response = await post(profiles, [{ ...profile, urm_set: { level: 2 } }]);

    expect(response.statusCode).toBe(200);
    const envelope = JSON.parse(Buffer.from(sent()[0].Records![0].Data!).toString());
    expect(envelope.kind).toBe('profile');
    expect(envelope.record.urm_set).toEqual({ level: 2 });
  });

  test("writes a profile's records one round after another, where /events sends them in one call", async () => {
    const records = ['player-1', 'player-2', 'player-1'].map((profile_id, n) => ({ ...profile, profile_id, urm_set: { n } }));
    const eventRecords = records.map(({ profile_id }, n) => ({ ...event, profile_id, n }));
    const numbersPerCall = () => sent().map((call) => call.Records!.map((r) => JSON.parse(Buffer.from(r.Data!).toString()).record));

    const profilesResponse = await post(profiles, records);
    const profileCalls = numbersPerCall().map((call) => call.map((record) => record.urm_set.n));
    kinesis.resetHistory();
    const eventsResponse = await post(events, eventRecords);
    const eventCalls = numbersPerCall().map((call) => call.map((record) => record.n));

    expect([profilesResponse.statusCode, eventsResponse.statusCode]).toEqual([200, 200]);
    expect(profileCalls).toEqual([[0, 1], [2]]);
    expect(eventCalls).toEqual([[0, 1, 2]]);
  });

  test('answers 400 for urm_delete_profile mixed with attributes', async () => {
    const response = await post(profiles, [{ ...profile, urm_delete_profile: 'profile_id', level: 2 }]);

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).errors).toEqual(['[0].urm_delete_profile cannot be combined with level']);
    expect(sent().length).toBe(0);
  });
});
