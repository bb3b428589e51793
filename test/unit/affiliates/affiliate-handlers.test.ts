import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, test } from '@jest/globals';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { makeRegisterAffiliateHandler } from '../../../functions/api/register-affiliate/make-handler';
import { makeSetAffiliateHandler } from '../../../functions/api/set-affiliate/make-handler';
import { newAffiliateId } from '../../../functions/domain/affiliates';
import { hashPassword } from '../../../functions/domain/passwords';
import { attribution, MemoryAffiliateStore, MemoryAppStore, MemoryPlanStore, registration } from '../../support/affiliates';
import { keyResolverOf } from '../../support/settings';
import { apiEvent, asProxyHandler, context, type ProxyHandler } from '../../support/lambda';
import { MemoryStream } from '../../support/memory-stream';

const keys = {
  'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k1' },
  'comms-key': { app_id: 'app_1', scope: 'comms', key_id: 'k2' },
} as const;
const apps = new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z', portal_origin: 'https://portal.example.com' }]);

let stream: MemoryStream;
let affiliates: MemoryAffiliateStore;
let setAffiliate: ProxyHandler;
let registerAffiliate: ProxyHandler;
function handlers(refused: number[] = []): void {
  stream = new MemoryStream(refused);
  affiliates = new MemoryAffiliateStore();
  setAffiliate = asProxyHandler(makeSetAffiliateHandler({ keys: keyResolverOf(keys), writer: stream, newId: randomUUID, now: () => new Date() }));
  registerAffiliate = asProxyHandler(
    makeRegisterAffiliateHandler({
      keys: keyResolverOf(keys),
      affiliates,
      apps,
      plans: new MemoryPlanStore(),
      hashPassword,
      newId: newAffiliateId,
      now: () => new Date(),
    }),
  );
}
beforeEach(() => handlers());

const post = (handler: ProxyHandler, path: string, body: unknown, key: string | null = 'server-key') =>
  handler(
    apiEvent({
      path,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', Host: 'api.example.com', ...(key ? { 'X-Api-Key': key } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
    context(),
  );
const answer = (response: APIGatewayProxyResult) => ({ status: response.statusCode, body: JSON.parse(response.body) });
/** An affiliate of app_1 who took this email and username first. */
const registeredBefore = (email: string, username: string) =>
  affiliates.register({ app_id: 'app_1', affiliate_id: 'aff_0', email, username, first_name: 'A', last_name: 'B', password_hash: 'x', created_at: '' });

describe('POST /api/set_affiliate handler', () => {
  test('puts the profile record and the event on the stream in one write and answers the message id', async () => {
    const response = answer(await post(setAffiliate, '/api/set_affiliate', attribution('app_1', 'player-1')));

    expect(response.status).toBe(200);
    expect(response.body.message).toBe('Affiliate set');
    expect(response.body.message_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stream.writes).toHaveLength(1);
    expect(stream.envelopes().map((e) => [e.kind, e.record.urm_insert_id])).toEqual([
      ['profile', response.body.message_id],
      ['event', response.body.message_id],
    ]);
  });

  test('answers 500 without internals when the stream keeps refusing a record', async () => {
    handlers([1]);

    const response = answer(await post(setAffiliate, '/api/set_affiliate', attribution('app_1')));

    expect(response).toEqual({ status: 500, body: { message: 'internal server error' } });
  });

  test('answers 400 with the message and every problem', async () => {
    const response = answer(await post(setAffiliate, '/api/set_affiliate', { app_id: 'app_1', profile_id: '', urm_aff: '' }));

    expect(response).toEqual({
      status: 400,
      body: { message: 'request body is invalid', errors: ['profile_id must not be empty', 'urm_aff must not be empty'] },
    });
    expect(stream.writes).toEqual([]);
  });

  for (const [name, key, body] of [
    ['without a key', null, attribution('app_1')],
    ['with a comms key', 'comms-key', attribution('app_1')],
    ["for another application's profile", 'server-key', attribution('app_2')],
  ] as const) {
    test(`answers 403 Forbidden ${name}`, async () => {
      const response = answer(await post(setAffiliate, '/api/set_affiliate', body, key));

      expect(response).toEqual({ status: 403, body: { message: 'Forbidden' } });
      expect(stream.writes).toEqual([]);
    });
  }
});

describe('POST /api/register_affiliate handler', () => {
  test('registers the affiliate with its email as given, trimmed, and the password hashed, and answers its login page', async () => {
    const body = { ...registration('app_1'), email: ' Ada@Example.COM ', username: 'Ada' };

    const response = answer(await post(registerAffiliate, '/api/register_affiliate', body));

    expect(response.status).toBe(200);
    expect(response.body.login_url).toBe('https://portal.example.com/affiliates/app_1/login');
    expect(response.body.affiliate_id).toMatch(/^aff_[0-9a-f]{20}$/);
    const [stored] = affiliates.affiliates.values();
    expect([stored.app_id, stored.affiliate_id, stored.email, stored.username]).toEqual(['app_1', response.body.affiliate_id, 'Ada@Example.COM', 'Ada']);
    expect(stored.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(!JSON.stringify(stored).includes(String(body.password))).toBeTruthy();
  });

  for (const [taken, errors] of [
    [['email'], ['email is invalid']],
    [['username'], ['username is invalid']],
    [
      ['email', 'username'],
      ['email is invalid', 'username is invalid'],
    ],
  ] as const) {
    test(`answers ${JSON.stringify(errors)} when the ${taken.join(' and ')} of another affiliate is asked for`, async () => {
      const body = registration('app_1');
      const asked = new Set<string>(taken);
      await registeredBefore(asked.has('email') ? body.email : 'other@example.com', asked.has('username') ? body.username : 'other');

      const response = answer(await post(registerAffiliate, '/api/register_affiliate', body));

      expect(response).toEqual({ status: 400, body: { errors } });
      expect(affiliates.affiliates.size).toBe(1);
    });
  }

  test('answers 500 {"errors": ["internal server error"]} when the store fails', async () => {
    affiliates.register = async () => {
      throw new Error('socket hang up at 10.0.0.1');
    };

    const response = answer(await post(registerAffiliate, '/api/register_affiliate', registration('app_1')));

    expect(response).toEqual({ status: 500, body: { errors: ['internal server error'] } });
  });

  for (const [name, raw] of [
    ['not JSON', '{"app_id":'],
    ['an array', '[]'],
    ['a string', '"hello"'],
    ['empty', ''],
  ] as const) {
    test(`answers {"errors": ["body is invalid"]} for a body that is ${name}`, async () => {
      const response = answer(await post(registerAffiliate, '/api/register_affiliate', raw));

      expect(response).toEqual({ status: 400, body: { errors: ['body is invalid'] } });
      expect(affiliates.affiliates.size).toBe(0);
    });
  }

  for (const [name, key, body] of [
    ['without a key', null, registration('app_1')],
    ['with a comms key', 'comms-key', registration('app_1')],
    ["for another application's app_id", 'server-key', registration('app_2')],
  ] as const) {
    test(`answers 403 {"message": "Forbidden"} ${name}`, async () => {
      const response = answer(await post(registerAffiliate, '/api/register_affiliate', body, key));

      expect(response).toEqual({ status: 403, body: { message: 'Forbidden' } });
      expect(affiliates.affiliates.size).toBe(0);
    });
  }
});
