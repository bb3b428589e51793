/**
 * Refusing a request is cheap (issue 9, "Throttling and abuse"): with a
 * missing, unknown, revoked or out-of-scope key nothing of the body is read,
 * parsed or validated, and each key costs at most one key-store read per
 * cache lifetime, however often it is sent and however many made-up keys
 * arrive meanwhile. Only then come the body's size, its parsing and its schema.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { hashApiKey, newApiKey, type ApiKeyRecord } from '../../../functions/domain/api-keys';
import type { Validator } from '../../../functions/domain/validation';
import { KeyResolver } from '../../../functions/http/auth';
import { AppOrigins } from '../../../functions/http/cors';
import { jsonApi } from '../../../functions/http/json-api';
import type { LookupCacheOptions } from '../../../functions/http/lookup-cache';
import { json } from '../../../functions/http/response';
import { apiEvent, context, setFunctionEnv, type ProxyHandler } from '../../support/lambda';

setFunctionEnv({ KEYS_TABLE: 'keys', APPS_TABLE: 'apps' });

const serverKey = newApiKey('server');
const revokedKey = newApiKey('server');
const commsKey = newApiKey('comms');
const record = (key: string, fields: Partial<ApiKeyRecord>): ApiKeyRecord => ({
  key_hash: hashApiKey(key),
  key_id: `key_${key.slice(-6)}`,
  app_id: 'app_1',
  scope: 'server',
  created_at: '2026-11-21T10:00:00Z',
  ...fields,
});

/** A key store that counts its reads, some of them possibly at once. */
class CountingKeyStore {
  reads = 0;
  readonly keys = new Map(
    [record(serverKey, {}), record(revokedKey, { revoked_at: '2026-11-21T11:00:00Z' }), record(commsKey, { scope: 'comms' })].map((key) => [key.key_hash, key]),
  );

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    this.reads++;
    await new Promise((resolve) => setImmediate(resolve));
    return this.keys.get(hash);
  }
}

let clock = 0;
const cacheOptions = (overrides: Partial<LookupCacheOptions> = {}): LookupCacheOptions => ({
  ttlMs: 30_000,
  maxFound: 100,
  maxMissing: 100,
  now: () => clock,
  ...overrides,
});

let store: CountingKeyStore;
let validations: number;
let parses: jest.Spied<typeof JSON.parse>;
beforeEach(() => {
  clock = 0;
  store = new CountingKeyStore();
  validations = 0;
  parses = jest.spyOn(JSON, 'parse');
});
afterEach(() => void jest.restoreAllMocks());

const countingValidator: Validator<unknown> = Object.assign(
  (input: unknown) => {
    validations++;
    return input;
  },
  { schema: {} },
);

function operation(keys = new KeyResolver(store, cacheOptions()), maxBytes = 1024): ProxyHandler {
  const handler = jsonApi({ scopes: ['server'], validate: countingValidator, keys, maxBytes }).handler(async () => json(200, { ok: true }));
  return handler as unknown as ProxyHandler;
}

/** A body over every limit that is not JSON either: parsing it would fail loudly, reading its size would refuse it. */
const hostileBody = `{"records": [${'9,'.repeat(600_000)}`;
const post = (key: string | undefined, body = hostileBody) =>
  apiEvent({
    path: '/profiles',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...(key === undefined ? {} : { 'x-api-key': key }) },
    body,
  });

describe('a request with a bad key is refused before its body is touched', () => {
  const badKeys: [string, string | undefined][] = [
    ['no key', undefined],
    ['an empty key', ''],
    ['a key too long to be one', `urm_server_${'a'.repeat(300)}`],
    ['an unknown key', newApiKey('server')],
    ['a revoked key', revokedKey],
    ['a key of another scope', commsKey],
  ];
  for (const [name, key] of badKeys) {
    test(`${name}: 403, nothing parsed or validated`, async () => {
      const response = await operation()(post(key), context());

      expect(response.statusCode).toBe(403);
      expect(JSON.parse(response.body)).toEqual({ message: 'Forbidden' });
      expect(parses.mock.calls.length).toBe(1);
      expect(validations).toBe(0);
      expect(store.reads <= 1).toBeTruthy();
    });
  }

  test('no key and an overlong key cost no key-store read at all', async () => {
    const handler = operation();

    await handler(post(undefined), context());
    await handler(post(`urm_server_${'a'.repeat(300)}`), context());

    expect(store.reads).toBe(0);
  });
});

describe('a refused key costs one key-store read per cache lifetime', () => {
  test('the same unknown key sent 50 times, with a body that would throw if parsed: one read, no parse', async () => {
    const handler = operation();
    const unknown = newApiKey('server');

    const statuses = [];
    for (let i = 0; i < 50; i++) statuses.push((await handler(post(unknown), context())).statusCode);

    expect(new Set(statuses)).toEqual(new Set([403]));
    expect(store.reads).toBe(1);
    expect(parses.mock.calls.length).toBe(0);
    expect(validations).toBe(0);
  });

  test('the same unknown key sent 20 times at once: one read', async () => {
    const handler = operation();
    const unknown = newApiKey('browser');

    const responses = await Promise.all(Array.from({ length: 20 }, () => handler(post(unknown), context())));

    expect(responses.every((response) => response.statusCode === 403)).toBeTruthy();
    expect(store.reads).toBe(1);
  });

  test('a revoked key is read again once the cache lifetime is over, and not before', async () => {
    const handler = operation();

    await handler(post(revokedKey), context());
    clock += 29_999;
    await handler(post(revokedKey), context());
    clock += 2;
    await handler(post(revokedKey), context());

    expect(store.reads).toBe(2);
  });
});

describe('made-up keys cannot push the live keys out of the cache', () => {
  test('after a flood of random keys, a live key is still answered without a read', async () => {
    const resolver = new KeyResolver(store, cacheOptions({ maxFound: 10, maxMissing: 100 }));
    expect((await resolver.resolve(serverKey))?.key_id).toBe(record(serverKey, {}).key_id);

    for (let i = 0; i < 1_000; i++) await resolver.resolve(`urm_server_${randomBytes(32).toString('base64url')}`);
    const readsAfterFlood = store.reads;
    const live = await resolver.resolve(serverKey);

    expect(readsAfterFlood).toBe(1_001);
    expect(live?.app_id).toBe('app_1');
    expect(store.reads).toBe(readsAfterFlood);
  });

  test('the unknown keys kept are bounded: the oldest are forgotten first', async () => {
    const resolver = new KeyResolver(store, cacheOptions({ maxMissing: 3 }));
    const [first, second, third, fourth] = Array.from({ length: 4 }, () => newApiKey('server'));

    for (const key of [first, second, third, fourth]) await resolver.resolve(key);
    await resolver.resolve(fourth);
    await resolver.resolve(second);
    const readsBefore = store.reads;
    await resolver.resolve(first);

    expect(readsBefore).toBe(4);
    expect(store.reads).toBe(5);
  });

  test('the same holds for the site origins a preflight looks up before any key', async () => {
    let reads = 0;
    const apps = {
      get: async (appId: string) => {
        reads++;
        return appId === 'app_1' ? { app_id: 'app_1', name: 'a', created_at: '', site_origins: ['https://play.example.com'] } : undefined;
      },
    };
    const origins = new AppOrigins(apps, cacheOptions({ maxFound: 10, maxMissing: 50 }));
    expect(await origins.allows('app_1', 'https://play.example.com')).toBe(true);

    for (let i = 0; i < 500; i++) expect(await origins.allows(`app_${i}x`, 'https://play.example.com')).toBe(false);
    const readsAfterFlood = reads;

    expect(await origins.allows('app_1', 'https://play.example.com')).toBe(true);
    expect(reads).toBe(readsAfterFlood);
  });
});

describe('with a good key, the body is bounded before it is parsed', () => {
  test('a body one byte over the limit is refused naming the limit, unparsed and unvalidated', async () => {
    const response = await operation(undefined, 1024)(post(serverKey, `[${'1,'.repeat(511)}11`), context());

    expect(response.statusCode).toBe(413);
    expect(JSON.parse(response.body)).toEqual({ message: 'request body must be at most 1 KiB' });
    expect(parses.mock.calls.length).toBe(1);
    expect(validations).toBe(0);
  });

  test('a body of exactly the limit is parsed and validated', async () => {
    const body = `[${'1,'.repeat(510)}11]`;
    expect(Buffer.byteLength(body)).toBe(1024);

    const response = await operation(undefined, 1024)(post(serverKey, body), context());

    expect(response.statusCode).toBe(200);
    expect(validations).toBe(1);
  });
});
