import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, test } from '@jest/globals';
import { makeIngestEventsHandler } from '../../../functions/api/ingest-events/make-handler';
import { makeIngestProfilesHandler } from '../../../functions/api/ingest-profiles/make-handler';
import { pushEndpointPolicy } from '../../../functions/domain/push';
import { AppOrigins } from '../../../functions/http/cors';
import { MemoryAppStore } from '../../support/affiliates';
import { keyResolverOf } from '../../support/settings';
import { apiEvent, asProxyHandler, context, type ProxyHandler } from '../../support/lambda';
import { MemoryStream } from '../../support/memory-stream';

const keys = {
  'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k1' },
  'revoked-key': { app_id: 'app_1', scope: 'server', key_id: 'k2', revoked_at: '2026-01-01T00:00:00Z' },
  'browser-key': { app_id: 'app_1', scope: 'browser', key_id: 'k3' },
  'comms-key': { app_id: 'app_1', scope: 'comms', key_id: 'k4' },
} as const;

let stream: MemoryStream;
let events: ProxyHandler;
let profiles: ProxyHandler;
beforeEach(() => {
  stream = new MemoryStream();
  const ports = {
    keys: keyResolverOf(keys),
    origins: new AppOrigins(new MemoryAppStore([])),
    writer: stream,
    newId: randomUUID,
    now: () => new Date(),
  };
  events = asProxyHandler(makeIngestEventsHandler(ports));
  profiles = asProxyHandler(
    makeIngestProfilesHandler({ ...ports, identity: { forApp: async () => ({ required: false }) }, pushEndpoints: pushEndpointPolicy('') }),
  );
});

const headers = (key: string | null) => ({
  'Content-Type': 'application/json',
  Accept: 'application/json',
  ...(key ? { 'X-Api-Key': key } : {}),
});
const event = { app_id: 'app_1', profile_id: 'player-1', event: 'deposit', urm_date_time: '2026-11-21T10:00:00Z', amount: 5 };
const post = (handler: ProxyHandler, body: unknown, key: string | null = 'server-key', extra: Record<string, string> = {}) =>
  handler(apiEvent({ path: '/events', headers: { ...headers(key), ...extra }, body: typeof body === 'string' ? body : JSON.stringify(body) }), context());

describe('POST /events handler', () => {
  test('writes each record to the stream under app#profile and answers the receipt', async () => {
    const response = await post(events, [event, { ...event, profile_id: 'player-2', urm_insert_id: 'mine' }]);

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({
      EncryptionType: 'NONE',
      FailedRecordCount: 0,
      Records: [
        { SequenceNumber: '100', ShardId: 'shardId-000000000000' },
        { SequenceNumber: '101', ShardId: 'shardId-000000000000' },
      ],
    });
    expect(stream.writes).toHaveLength(1);
    expect(stream.entries().map((entry) => entry.partitionKey)).toEqual(['app_1#player-1', 'app_1#player-2']);
    const [first, second] = stream.envelopes();
    expect(first.kind).toBe('event');
    expect(first.record.urm_insert_id).toMatch(/^urm-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second.record.urm_insert_id).toBe('mine');
    expect(first.record.amount).toBe(5);
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
      expect(stream.writes).toEqual([]);
    });
  }

  test("answers 403 when a record names another application's app_id", async () => {
    const response = await post(events, [event, { ...event, app_id: 'app_2' }]);

    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ message: 'Forbidden' });
    expect(stream.writes).toEqual([]);
  });

  test('answers 400 naming the record and field, and writes nothing, when one record is invalid', async () => {
    const response = await post(events, [event, { ...event, urm_date_time: 'yesterday' }]);

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      message: 'request body is invalid',
      errors: ['[1].urm_date_time must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T12:00:00Z'],
    });
    expect(stream.writes).toEqual([]);
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
    expect(stream.writes).toEqual([]);
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
    stream.failure = new Error('AccessDeniedException: arn:aws:iam::123:role/secret');

    const response = await post(events, [event]);

    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ message: 'internal server error' });
  });

  test('answers the records the stream refused, counted, for the client to send again', async () => {
    stream = new MemoryStream([1]);
    events = asProxyHandler(
      makeIngestEventsHandler({
        keys: keyResolverOf(keys),
        origins: new AppOrigins(new MemoryAppStore([])),
        writer: stream,
        newId: randomUUID,
        now: () => new Date(),
      }),
    );

    const response = await post(events, [event, { ...event, profile_id: 'player-2' }]);

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({
      FailedRecordCount: 1,
      Records: [{ SequenceNumber: '100' }, { ErrorCode: 'ProvisionedThroughputExceededException' }],
    });
  });
});

describe('POST /profiles handler', () => {
  const profile = { app_id: 'app_1', profile_id: 'player-1', urm_date_time: '2026-11-21T10:00:00Z' };

  test('writes profile records with kind "profile"', async () => {
    const response = await post(profiles, [{ ...profile, urm_set: { level: 2 } }]);

    expect(response.statusCode).toBe(200);
    const [envelope] = stream.envelopes();
    expect(envelope.kind).toBe('profile');
    expect(envelope.record.urm_set).toEqual({ level: 2 });
  });

  test('answers 400 for urm_delete_profile mixed with attributes', async () => {
    const response = await post(profiles, [{ ...profile, urm_delete_profile: 'profile_id', level: 2 }]);

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).errors).toEqual(['[0].urm_delete_profile cannot be combined with level']);
    expect(stream.writes).toEqual([]);
  });
});
