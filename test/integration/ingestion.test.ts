import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { readWholeStream } from '../support/stream';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

const now = '2026-11-21T10:00:00Z';
const event = (profileId: string, extra: Record<string, unknown> = {}) => ({
  app_id: stack.dev.app_id,
  profile_id: profileId,
  event: 'deposit',
  urm_date_time: now,
  amount: 25.5,
  ...extra,
});
const post = (path: string, body: unknown, key = stack.dev.server_key) => request(stack.baseUrl, 'POST', path, { key, body });

describe('POST /events through the local stack', () => {
  test('answers a receipt whose entries carry the stream’s sequence numbers and shard ids', async () => {
    const profileId = `player-${randomUUID()}`;

    const response = await post('/events', [event(profileId), event(profileId, { event: 'bet' })]);

    expect(response.status).toBe(200);
    expect(response.body.FailedRecordCount).toBe(0);
    expect(response.body.Records.length).toBe(2);
    const stored = (await readWholeStream(stack.endpoints)).filter((r) => r.envelope.record.profile_id === profileId);
    expect(response.body.Records).toEqual(stored.map((r) => ({ SequenceNumber: r.sequenceNumber, ShardId: r.shardId })));
    expect(stored.map((r) => r.envelope.record.event)).toEqual(['deposit', 'bet']);
  });

  test('keeps the urm_insert_id the client sent and gives one to a record without', async () => {
    const profileId = `player-${randomUUID()}`;

    await post('/events', [event(profileId, { urm_insert_id: 'client-id-1' }), event(profileId)]);

    const stored = (await readWholeStream(stack.endpoints)).filter((r) => r.envelope.record.profile_id === profileId);
    expect(stored[0].envelope.record.urm_insert_id).toBe('client-id-1');
    expect(stored[1].envelope.record.urm_insert_id).toMatch(/^urm-[0-9a-f-]{36}$/);
  });
});

describe('refusals through the local stack', () => {
  const forbidden: [string, () => Promise<{ status: number; body: unknown }>][] = [
    ['no key', () => request(stack.baseUrl, 'POST', '/events', { body: [event('p')] })],
    ['a wrong key', () => post('/events', [event('p')], 'urm_server_wrong')],
    ["another application's app_id", () => post('/events', [{ ...event('p'), app_id: 'app_someone_else' }])],
    ['a comms key', () => post('/events', [event('p')], stack.dev.comms_key)],
  ];
  for (const [name, send] of forbidden) {
    test(`answers 403 {"message": "Forbidden"} with ${name}`, async () => {
      const response = await send();

      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: 'Forbidden' });
    });
  }

  test('answers 400 to every kind of bad input, saying what is wrong, and nothing reaches the stream', async () => {
    const marker = `bad-${randomUUID()}`;
    const profile = { app_id: stack.dev.app_id, profile_id: marker, urm_date_time: now };
    const cases: [string, { body?: unknown; rawBody?: string }, string][] = [
      ['not JSON', { rawBody: `[{"profile_id":"${marker}"` }, 'request body must be valid JSON'],
      ['an object instead of an array', { body: profile }, 'request body must be an array'],
      ['an empty array', { body: [] }, 'request body must hold at least 1 record'],
      ['501 records', { body: Array.from({ length: 501 }, () => profile) }, 'request body must hold at most 500 records'],
      ['a record over 1 MiB', { body: [{ ...profile, blob: 'x'.repeat(1024 * 1024) }] }, '[0] is larger than the 1 MiB limit of one record'],
      ['a missing required field', { body: [{ app_id: stack.dev.app_id, profile_id: marker }] }, '[0].urm_date_time is required'],
      ['a bad date', { body: [{ ...profile, urm_date_time: '2026-13-45T99:00:00Z' }] }, '[0].urm_date_time must be an ISO 8601 date-time'],
      ['a URM_x attribute', { body: [{ ...profile, URM_x: 1 }] }, '[0].URM_x is not allowed'],
      ['a null value', { body: [{ ...profile, a: null }] }, '[0].a must be a string, number, boolean or array'],
      ['an object value', { body: [{ ...profile, a: { b: 1 } }] }, '[0].a must be a string, number, boolean or array'],
      [
        'urm_delete_profile with attributes',
        { body: [{ ...profile, urm_delete_profile: 'profile_id', a: 1 }] },
        '[0].urm_delete_profile cannot be combined with a',
      ],
    ];
    for (const [, body, expected] of cases) {
      const response = await request(stack.baseUrl, 'POST', '/profiles', { key: stack.dev.server_key, ...body });

      expect(response.status).toBe(400);
      expect(response.body.message).toBe('request body is invalid');
      expect(response.body.errors.some((e: string) => e.includes(expected))).toBeTruthy();
    }
    const reached = (await readWholeStream(stack.endpoints)).filter((r) => r.envelope.record.profile_id === marker);
    expect(reached.length).toBe(0);
  });

  test('answers 404 for an unknown path and 405 for a wrong method', async () => {
    expect((await request(stack.baseUrl, 'GET', '/nothing-here')).status).toBe(404);
    const wrongMethod = await request(stack.baseUrl, 'GET', '/events', { key: stack.dev.server_key });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });
});
