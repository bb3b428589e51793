import { describe, expect, test } from '@jest/globals';
import { consoleCsrfToken, hashSecret, newSecret, type EnterpriseUser } from '../../../functions/domain/enterprise';
import { consoleApi, type ConsoleEvent } from '../../../functions/http/console-auth';
import { json } from '../../../functions/http/response';
import { FakeClock, MemorySessionStore, MemoryUserStore } from '../../support/enterprise';
import { apiEvent, context } from '../../support/lambda';

const MINUTE = 60_000;
const signedInAt = new Date('2026-11-21T10:00:00.000Z');

async function setup(role: EnterpriseUser['role'] = 'marketer') {
  const clock = new FakeClock(signedInAt);
  const sessions = new MemorySessionStore();
  const users = new MemoryUserStore();
  await users.create({ app_id: 'app_1', user_id: 'usr_1', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', created_at: '', role });
  const sessionId = newSecret();
  await sessions.put({
    session_hash: hashSecret(sessionId),
    app_id: 'app_1',
    user_id: 'usr_1',
    created_at: signedInAt.toISOString(),
    last_seen: signedInAt.toISOString(),
    expires_at: new Date(signedInAt.getTime() + 12 * 60 * MINUTE).toISOString(),
    cookie_secure: true,
  });
  const seen: ConsoleEvent['console'][] = [];
  const operation = (options: { roles: EnterpriseUser['role'][]; mutates: boolean }) =>
    consoleApi({ ...options, ports: { sessions, users, now: clock.now } }).handler(async (event) => {
      seen.push(event.console);
      return json(200, { ok: true });
    });
  const call = (handler: ReturnType<typeof operation>, headers: Record<string, string> = {}) =>
    handler(apiEvent({ method: 'POST', path: '/console/api/x', headers }) as ConsoleEvent, context());
  const cookie = { Cookie: `urm_portal_session=${sessionId}` };
  return { clock, sessions, users, sessionId, seen, operation, call, cookie };
}

describe('the console API middleware', () => {
  test("hands the operation the caller's application, user, role and email", async () => {
    const { operation, call, cookie, seen } = await setup();

    const response = await call(operation({ roles: ['admin', 'marketer'], mutates: false }), cookie);

    expect(response.statusCode).toBe(200);
    expect(seen).toEqual([{ appId: 'app_1', userId: 'usr_1', role: 'marketer', email: 'ada@example.com' }]);
    expect(response.headers?.['Cache-Control']).toBe('no-store');
  });

  test('answers 401 JSON without a cookie, with an unknown session, and never reaches the operation', async () => {
    const { operation, call, seen } = await setup();
    const handler = operation({ roles: ['viewer'], mutates: false });

    for (const headers of [{} as Record<string, string>, { Cookie: `urm_portal_session=${newSecret()}` }, { Cookie: 'urm_portal_session=short' }]) {
      const response = await call(handler, headers);
      expect(response.statusCode).toBe(401);
      expect(JSON.parse(response.body)).toEqual({ message: 'not signed in' });
      expect(response.headers?.['Content-Type']).toMatch(/^application\/json/);
    }
    expect(seen).toEqual([]);
  });

  test('answers 401 once the session has been unused for 30 minutes', async () => {
    const { operation, call, cookie, clock } = await setup();
    const handler = operation({ roles: ['marketer'], mutates: false });

    clock.advance(30 * MINUTE - 1);
    expect((await call(handler, cookie)).statusCode).toBe(200);
    clock.advance(30 * MINUTE - 1);
    expect((await call(handler, cookie)).statusCode).toBe(200);
    clock.advance(30 * MINUTE);
    expect((await call(handler, cookie)).statusCode).toBe(401);
  });

  test('answers 401 twelve hours after the sign-in however busy the session was', async () => {
    const { operation, call, cookie, clock } = await setup();
    const handler = operation({ roles: ['marketer'], mutates: false });

    for (let step = 0; step < 12 * 4 - 1; step += 1) {
      clock.advance(15 * MINUTE);
      expect((await call(handler, cookie)).statusCode).toBe(200);
    }
    clock.advance(15 * MINUTE - 1);
    expect((await call(handler, cookie)).statusCode).toBe(200);
    clock.advance(1);
    expect((await call(handler, cookie)).statusCode).toBe(401);
  });

  test('moves last_seen at most once a minute', async () => {
    const { operation, call, cookie, clock, sessions, sessionId } = await setup();
    const handler = operation({ roles: ['marketer'], mutates: false });
    const lastSeen = () => sessions.sessions.get(hashSecret(sessionId))?.last_seen;

    clock.advance(MINUTE - 1);
    await call(handler, cookie);
    expect(lastSeen()).toBe(signedInAt.toISOString());
    clock.advance(1);
    await call(handler, cookie);
    expect(lastSeen()).toBe('2026-11-21T10:01:00.000Z');
  });

  test('answers 403 Forbidden when the role may not, and the operation does not run', async () => {
    const { operation, call, cookie, seen } = await setup('viewer');

    const response = await call(operation({ roles: ['admin', 'marketer'], mutates: false }), cookie);

    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ message: 'Forbidden' });
    expect(seen).toEqual([]);
  });

  test('takes a role change into account on the next call', async () => {
    const { operation, call, cookie, users } = await setup('admin');
    const handler = operation({ roles: ['admin'], mutates: false });
    expect((await call(handler, cookie)).statusCode).toBe(200);

    await users.create({ app_id: 'app_1', user_id: 'usr_2', email: 'b@example.com', first_name: 'B', last_name: 'B', created_at: '', role: 'admin' });
    await users.changeRole('app_1', 'usr_1', 'admin', 'viewer');

    expect((await call(handler, cookie)).statusCode).toBe(403);
  });

  test("refuses a state-changing call without the session's X-CSRF-Token, or with another's", async () => {
    const { operation, call, cookie, seen } = await setup();
    const handler = operation({ roles: ['marketer'], mutates: true });

    for (const token of [undefined, '', consoleCsrfToken(newSecret())]) {
      const response = await call(handler, token === undefined ? cookie : { ...cookie, 'X-CSRF-Token': token });
      expect(response.statusCode).toBe(403);
      expect(JSON.parse(response.body)).toEqual({ message: 'CSRF token missing or invalid' });
    }
    expect(seen).toEqual([]);
  });

  test("lets a state-changing call through with the session's X-CSRF-Token", async () => {
    const { operation, call, cookie, sessionId } = await setup();

    const response = await call(operation({ roles: ['marketer'], mutates: true }), { ...cookie, 'X-CSRF-Token': consoleCsrfToken(sessionId) });

    expect(response.statusCode).toBe(200);
  });

  test('needs no CSRF token for a call that only reads', async () => {
    const { operation, call, cookie } = await setup();

    expect((await call(operation({ roles: ['marketer'], mutates: false }), cookie)).statusCode).toBe(200);
  });
});
