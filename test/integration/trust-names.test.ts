/**
 * Names that are also Object.prototype's (issue 25, item 6) over HTTP on the
 * local stack: events named `__proto__`, `constructor`, `toString`,
 * `hasOwnProperty` and `valueOf` are kept and shown as any other, on the
 * console's timeline and the integrator's; the money mapping refuses the two
 * names its store cannot keep with a 400 naming them, and keeps the others.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { commandLineActor } from '../../functions/domain/audit';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { request } from '../support/http';
import { until } from '../support/profiles';
import { testStack, type TestStack } from '../support/local-stack';

const prototypeNames = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

let stack: TestStack;
let app: { appId: string; serverKey: string };
let admin: ConsoleSession;

const api = (method: 'GET' | 'POST', path: string, body?: unknown) => consoleRequest(stack.baseUrl, admin, method, path, body);

beforeAll(async () => {
  stack = await testStack();
  const office = localBackOffice(localClients(stack.endpoints).document);
  const created = await createApp(office, { name: `names ${randomUUID()}`, portalOrigin: stack.baseUrl });
  app = { appId: created.app_id, serverKey: (await issueKey(office, created.app_id, commandLineActor, 'server')).key };
  admin = await consoleSignIn(stack.baseUrl, app);
}, 60_000);

describe('events named like Object.prototype’s properties', () => {
  const profileId = `player-${randomUUID()}`;
  const ingest = (path: '/profiles' | '/events', records: Record<string, unknown>[]) =>
    request(stack.baseUrl, 'POST', path, {
      key: app.serverKey,
      body: records.map((record) => ({ app_id: app.appId, profile_id: profileId, urm_date_time: '2026-11-21T10:00:00Z', ...record })),
    });

  beforeAll(async () => {
    expect((await ingest('/profiles', [{ country: 'MT' }])).status).toBe(200);
    const sent = await ingest(
      '/events',
      prototypeNames.map((event, i) => ({ event, urm_insert_id: `${event}-${i}`, seat: i })),
    );
    expect({ status: sent.status, failed: sent.body.FailedRecordCount }).toEqual({ status: 200, failed: 0 });
  }, 60_000);

  test("the console's timeline lists each by its name, with its attributes", async () => {
    const timeline = await until(
      () => api('GET', `/console/api/players/${profileId}/timeline`),
      (response) => response.status === 200 && response.body.events.length === prototypeNames.length,
      'the five events on the timeline',
    );

    const shown = timeline.body.events.map((entry: { event: string; attributes: { seat: number } }) => [entry.event, entry.attributes.seat]);
    expect(shown.sort(([, a]: [string, number], [, b]: [string, number]) => a - b)).toEqual(prototypeNames.map((name, i) => [name, i]));
  });

  test.each(prototypeNames)('the console filters the timeline by the event name %s', async (name) => {
    const filtered = await until(
      () => api('GET', `/console/api/players/${profileId}/timeline?event=${encodeURIComponent(name)}`),
      (response) => response.status === 200 && response.body.events.length > 0,
      `the ${name} event`,
    );

    expect(filtered.body.events.map((entry: { event: string }) => entry.event)).toEqual([name]);
  });

  test("the integrator's read of the timeline has every name as sent", async () => {
    const page = await until(
      () => request(stack.baseUrl, 'GET', `/profiles/${profileId}/events?app_id=${app.appId}`, { key: app.serverKey }),
      (response) => response.status === 200 && response.body.events.length === prototypeNames.length,
      'the five events through the API',
    );

    expect(page.body.events.map((entry: { event: string }) => entry.event).sort()).toEqual([...prototypeNames].sort());
  });
});

describe('the money mapping with those names', () => {
  test.each(['constructor', '__proto__'])('a money event named %s is a 400 naming it, and the mapping stays as it was', async (name) => {
    const before = await api('GET', '/console/api/money');

    // As a browser sends it: JSON text, where `__proto__` is a key like any other.
    const refused = await request(stack.baseUrl, 'POST', '/console/api/money', {
      rawBody: `{"money_events": {${JSON.stringify(name)}: "deposit", "Deposit": "deposit"}}`,
      headers: { Cookie: admin.cookie, 'X-CSRF-Token': admin.csrf, 'Content-Type': 'application/json' },
    });

    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.stringContaining(JSON.stringify(name))]);
    expect((await api('GET', '/console/api/money')).body).toEqual(before.body);
  });

  test('money events named toString, hasOwnProperty and valueOf are stored and read back', async () => {
    const mapping = { toString: 'deposit', hasOwnProperty: 'bet', valueOf: 'win' };

    const set = await api('POST', '/console/api/money', { money_events: mapping });

    expect(set.status).toBe(200);
    expect((await api('GET', '/console/api/money')).body).toEqual({ currency: 'EUR', money_events: mapping });
  });
});
