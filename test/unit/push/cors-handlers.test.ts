import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, test } from '@jest/globals';
import { makeIngestEventsHandler } from '../../../functions/api/ingest-events/make-handler';
import { AppOrigins } from '../../../functions/http/cors';
import { MemoryAppStore } from '../../support/affiliates';
import { keyResolverOf } from '../../support/settings';
import { apiEvent, asProxyHandler, context, type ProxyHandler } from '../../support/lambda';
import { MemoryStream } from '../../support/memory-stream';

const site = 'https://play.example.com';

let stream: MemoryStream;
let events: ProxyHandler;
beforeEach(() => {
  stream = new MemoryStream();
  events = asProxyHandler(
    makeIngestEventsHandler({
      keys: keyResolverOf({
        'browser-key': { app_id: 'app_1', scope: 'browser', key_id: 'k1' },
        'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k2' },
      }),
      origins: new AppOrigins(new MemoryAppStore([{ app_id: 'app_1', name: 'a', created_at: '', site_origins: [site] }])),
      writer: stream,
      newId: randomUUID,
      now: () => new Date(),
    }),
  );
});

const lifecycle = { app_id: 'app_1', profile_id: 'p', event: 'urm_push_clicked', urm_date_time: '2026-11-21T10:00:00Z', notification_id: 'n-1' };
const call = (method: string, headers: Record<string, string>, body?: unknown, path = '/events?app_id=app_1') =>
  events(apiEvent({ method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) }), context());
const json = { 'Content-Type': 'application/json', Accept: 'application/json' };

describe('POST /events, as a browser-key operation', () => {
  test('answers the preflight of a site origin with CORS headers, without a key and without writing', async () => {
    const response = await call('OPTIONS', { Origin: site, 'Access-Control-Request-Method': 'POST' });

    expect(response.statusCode).toBe(204);
    expect(response.headers).toEqual({
      'Access-Control-Allow-Origin': site,
      'Access-Control-Allow-Methods': 'POST',
      'Access-Control-Allow-Headers': 'Content-Type, Accept, X-Api-Key',
      'Access-Control-Max-Age': '600',
      Vary: 'Origin',
    });
    expect(stream.writes).toEqual([]);
  });

  test('refuses the preflight of another origin', async () => {
    const response = await call('OPTIONS', { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' });

    expect(response.statusCode).toBe(403);
    expect(response.headers?.['Access-Control-Allow-Origin']).toBe(undefined);
  });

  test("writes a browser key's lifecycle event from a site origin and lets the page read the answer", async () => {
    const response = await call('POST', { ...json, 'x-api-key': 'browser-key', Origin: site }, [lifecycle]);

    expect(response.statusCode).toBe(200);
    expect(response.headers?.['Access-Control-Allow-Origin']).toBe(site);
    expect(stream.writes).toHaveLength(1);
  });

  test('refuses a browser key from another origin, and writes nothing', async () => {
    const response = await call('POST', { ...json, 'x-api-key': 'browser-key', Origin: 'https://evil.example' }, [lifecycle]);

    expect(response.statusCode).toBe(403);
    expect(stream.writes).toEqual([]);
  });

  test('refuses a browser key writing any other event, and writes nothing', async () => {
    const response = await call('POST', { ...json, 'x-api-key': 'browser-key', Origin: site }, [{ ...lifecycle, event: 'deposit' }]);

    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ message: 'Forbidden' });
    expect(response.headers?.['Access-Control-Allow-Origin']).toBe(site);
    expect(stream.writes).toEqual([]);
  });

  test('refuses a browser key without an Origin (browsers send one with every POST), and writes nothing', async () => {
    const response = await call('POST', { ...json, 'x-api-key': 'browser-key' }, [lifecycle]);

    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ message: 'Forbidden' });
    expect(stream.writes).toEqual([]);
  });

  test('takes a server key without an Origin', async () => {
    const response = await call('POST', { ...json, 'x-api-key': 'server-key' }, [lifecycle]);

    expect(response.statusCode).toBe(200);
  });

  test('gives a server key no CORS headers, even from a site origin', async () => {
    const response = await call('POST', { ...json, 'x-api-key': 'server-key', Origin: site }, [lifecycle]);

    expect(response.statusCode).toBe(200);
    expect(response.headers?.['Access-Control-Allow-Origin']).toBe(undefined);
  });
});

describe('a query app_id naming another application than the key', () => {
  for (const [label, path] of [
    ['another application', '/events?app_id=app_2'],
    ['an empty one', '/events?app_id='],
  ] as const) {
    test(`refuses a browser key whose body names its own application, with ${label} in the query, and writes nothing`, async () => {
      const response = await call('POST', { ...json, 'x-api-key': 'browser-key', Origin: site }, [lifecycle], path);

      expect(response.statusCode).toBe(403);
      expect(JSON.parse(response.body)).toEqual({ message: 'Forbidden' });
      expect(stream.writes).toEqual([]);
    });
  }

  test('refuses a server key the same way, and writes nothing', async () => {
    const response = await call('POST', { ...json, 'x-api-key': 'server-key' }, [lifecycle], '/events?app_id=app_2');

    expect(response.statusCode).toBe(403);
    expect(stream.writes).toEqual([]);
  });

  test('takes a server key without any app_id in the query', async () => {
    const response = await call('POST', { ...json, 'x-api-key': 'server-key' }, [lifecycle], '/events');

    expect(response.statusCode).toBe(200);
  });
});

describe('the insert id of a lifecycle event', () => {
  test("is the service's own for a browser key, whatever id was sent: one per notification and kind", async () => {
    await call('POST', { ...json, 'x-api-key': 'browser-key', Origin: site }, [{ ...lifecycle, urm_insert_id: 'deposit-1' }]);
    await call('POST', { ...json, 'x-api-key': 'browser-key', Origin: site }, [
      { ...lifecycle, urm_insert_id: 'n-1:clicked' },
      { ...lifecycle, event: 'urm_push_dismissed' },
    ]);

    const ids = stream.envelopes().map((envelope) => envelope.record.urm_insert_id);
    expect(ids[0]).toMatch(/^urm-browser-[0-9a-f]{32}$/);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).toMatch(/^urm-browser-[0-9a-f]{32}$/);
    expect(ids[2]).not.toBe(ids[0]);
  });

  test('is kept as sent for a server key', async () => {
    await call('POST', { ...json, 'x-api-key': 'server-key' }, [{ ...lifecycle, urm_insert_id: 'deposit-1' }]);

    expect(stream.envelopes().map((envelope) => envelope.record.urm_insert_id)).toEqual(['deposit-1']);
  });

  test("in the browser keys' namespace is refused to any key, before anything is written", async () => {
    const response = await call('POST', { ...json, 'x-api-key': 'server-key' }, [{ ...lifecycle, urm_insert_id: 'urm-browser-1' }]);

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).errors).toEqual([
      '[0].urm_insert_id must be an id that does not start with urm-browser-, which the service keeps for the records of browser keys',
    ]);
    expect(stream.writes).toEqual([]);
  });
});
