/**
 * The console's per-route checks (functions/http/console-auth.ts), through the
 * console's router: the session, the role, the CSRF token, in that order,
 * before any route runs.
 */
import { describe, expect, test } from '@jest/globals';
import { hashSecret, newSecret } from '../../../functions/domain/secrets-random';
import { consoleCsrf } from '../../../functions/domain/sessions';
import { consoleRouter } from '../../support/console-router';

const MINUTE = 60_000;

describe('the console API middleware', () => {
  test("hands the route the caller's application, user, role and email", async () => {
    const api = consoleRouter();
    const marketer = await api.signIn('marketer', 'ada@example.com');

    const response = await api.call('GET', '/console/api/session', { as: marketer });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ user: { user_id: marketer.userId, email: 'ada@example.com' }, app: { app_id: 'app_1' }, role: 'marketer' });
    expect(response.headers['Cache-Control']).toBe('no-store');
  });

  test('answers 401 JSON without a cookie, with an unknown session, and never reaches the route', async () => {
    const api = consoleRouter();

    for (const cookie of [undefined, `urm_portal_session=${newSecret()}`, 'urm_portal_session=short']) {
      const response = await api.call('POST', '/console/api/plans', {
        as: null,
        body: { name: 'CPA', cpa: { amount: '50' } },
        headers: cookie ? { Cookie: cookie } : {},
      });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: 'not signed in' });
      expect(response.headers['Content-Type']).toMatch(/^application\/json/);
    }
    expect(api.plans.plans).toEqual([]);
  });

  test('answers 401 once the session has been unused for 30 minutes', async () => {
    const api = consoleRouter();
    const marketer = await api.signIn('marketer');
    const call = async () => (await api.call('GET', '/console/api/session', { as: marketer })).status;

    api.clock.advance(30 * MINUTE - 1);
    expect(await call()).toBe(200);
    api.clock.advance(30 * MINUTE - 1);
    expect(await call()).toBe(200);
    api.clock.advance(30 * MINUTE);
    expect(await call()).toBe(401);
  });

  test('answers 401 twelve hours after the sign-in however busy the session was', async () => {
    const api = consoleRouter();
    const marketer = await api.signIn('marketer');
    const call = async () => (await api.call('GET', '/console/api/session', { as: marketer })).status;

    for (let step = 0; step < 12 * 4 - 1; step += 1) {
      api.clock.advance(15 * MINUTE);
      expect(await call()).toBe(200);
    }
    api.clock.advance(15 * MINUTE - 1);
    expect(await call()).toBe(200);
    api.clock.advance(1);
    expect(await call()).toBe(401);
  });

  test('moves last_seen at most once a minute', async () => {
    const api = consoleRouter();
    const marketer = await api.signIn('marketer');
    const signedInAt = api.clock.now().toISOString();
    const sessionHash = hashSecret(marketer.cookie.split('=')[1]!);
    const lastSeen = () => api.sessions.sessions.get(sessionHash)?.last_seen;

    api.clock.advance(MINUTE - 1);
    await api.call('GET', '/console/api/session', { as: marketer });
    expect(lastSeen()).toBe(signedInAt);
    api.clock.advance(1);
    await api.call('GET', '/console/api/session', { as: marketer });
    expect(lastSeen()).toBe('2026-11-21T10:01:00.000Z');
  });

  test('answers 403 Forbidden when the role may not, and the route does not run', async () => {
    const api = consoleRouter();
    const viewer = await api.signIn('viewer');

    const response = await api.call('POST', '/console/api/plans', { as: viewer, body: { name: 'CPA', cpa: { amount: '50' } } });

    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: 'Forbidden' });
    expect(api.plans.plans).toEqual([]);
  });

  test('takes a role change into account on the next call', async () => {
    const api = consoleRouter();
    const admin = await api.admin();
    expect((await api.call('GET', '/console/api/keys', { as: admin })).status).toBe(200);

    api.setRole(admin, 'viewer');

    expect((await api.call('GET', '/console/api/keys', { as: admin })).status).toBe(403);
  });

  test("refuses a state-changing call without the session's X-CSRF-Token, or with another's", async () => {
    const api = consoleRouter();
    const marketer = await api.signIn('marketer');

    for (const token of [false as const, '', consoleCsrf.tokenFor(newSecret())]) {
      const response = await api.call('POST', '/console/api/plans', { as: marketer, csrf: token, body: { name: 'CPA', cpa: { amount: '50' } } });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: 'CSRF token missing or invalid' });
    }
    expect(api.plans.plans).toEqual([]);
  });

  test("lets a state-changing call through with the session's X-CSRF-Token", async () => {
    const api = consoleRouter();
    const marketer = await api.signIn('marketer');

    const response = await api.call('POST', '/console/api/plans', { as: marketer, csrf: marketer.csrf, body: { name: 'CPA', cpa: { amount: '50' } } });

    expect(response.status).toBe(201);
  });

  test('needs no CSRF token for a call that only reads', async () => {
    const api = consoleRouter();
    const marketer = await api.signIn('marketer');

    expect((await api.call('GET', '/console/api/plans', { as: marketer, csrf: false })).status).toBe(200);
  });

  test('refuses before reading the body: a refused call with a body that is not JSON is 401 or 403, not 400', async () => {
    const api = consoleRouter();
    const viewer = await api.signIn('viewer');
    const notJson = { headers: { 'Content-Type': 'application/json' }, rawBody: '{"name": ' };

    const anonymous = await api.call('POST', '/console/api/plans', { ...notJson, as: null });
    const forbidden = await api.call('POST', '/console/api/plans', { ...notJson, as: viewer });
    const allowed = await api.call('POST', '/console/api/plans', { ...notJson, as: await api.signIn('marketer') });

    expect([anonymous.status, forbidden.status, allowed.status]).toEqual([401, 403, 400]);
  });
});
