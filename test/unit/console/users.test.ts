/** The console's users and session routes (functions/console/users): roles, sign-out. */
import { describe, expect, test } from '@jest/globals';
import { hashSecret } from '../../../functions/domain/secrets-random';
import { consoleRouter } from '../../support/console-router';

describe('POST /console/api/users/{user_id}/role', () => {
  test("changes the user's role and appends an audit entry naming who did it", async () => {
    const api = consoleRouter();
    const admin = await api.admin();
    const other = await api.signIn('viewer');

    const response = await api.call('POST', `/console/api/users/${other.userId}/role`, { body: { role: 'marketer' } });

    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ user_id: other.userId, role: 'marketer' });
    expect((await api.users.get('app_1', other.userId))?.role).toBe('marketer');
    expect(api.audit.entries).toEqual([
      expect.objectContaining({
        app_id: 'app_1',
        action: 'user.role_changed',
        target: `user:${other.userId}`,
        actor: { user_id: admin.userId, email: 'ada@example.com' },
        details: { from: 'viewer', to: 'marketer' },
      }),
    ]);
  });

  test('answers 409 when the demotion would leave no admin, and writes no audit entry', async () => {
    const api = consoleRouter();
    const admin = await api.admin();

    const response = await api.call('POST', `/console/api/users/${admin.userId}/role`, { body: { role: 'viewer' } });

    expect([response.status, response.body]).toEqual([409, { message: 'the application must keep at least one admin' }]);
    expect((await api.users.get('app_1', admin.userId))?.role).toBe('admin');
    expect(api.audit.entries).toEqual([]);
  });

  test('answers 404 for a user of no application of the session', async () => {
    const api = consoleRouter();

    const response = await api.call('POST', '/console/api/users/usr_000000000000000000000000/role', { body: { role: 'admin' } });

    expect([response.status, response.body]).toEqual([404, { message: 'user not found' }]);
  });

  test('answers 403 for a viewer and changes nothing', async () => {
    const api = consoleRouter();
    const viewer = await api.signIn('viewer');
    const other = await api.signIn('marketer');

    const response = await api.call('POST', `/console/api/users/${other.userId}/role`, { as: viewer, body: { role: 'admin' } });

    expect(response.status).toBe(403);
    expect((await api.users.get('app_1', other.userId))?.role).toBe('marketer');
  });

  test('answers 403 without the CSRF token before reading the body', async () => {
    const api = consoleRouter();
    const other = await api.signIn('viewer');

    const response = await api.call('POST', `/console/api/users/${other.userId}/role`, {
      csrf: 'not-the-token',
      rawBody: '{"role": ',
      headers: { 'Content-Type': 'application/json' },
    });

    expect([response.status, response.body]).toEqual([403, { message: 'CSRF token missing or invalid' }]);
    expect((await api.users.get('app_1', other.userId))?.role).toBe('viewer');
  });
});

describe('the users, the session and signing out', () => {
  test('lists the application’s users for an admin only, oldest first', async () => {
    const api = consoleRouter();
    const admin = await api.admin();
    const viewer = await api.signIn('viewer');

    const listed = await api.call('GET', '/console/api/users?limit=10');
    const refused = await api.call('GET', '/console/api/users', { as: viewer });

    expect(listed.body).toEqual({
      users: [expect.objectContaining({ user_id: admin.userId, role: 'admin' }), expect.objectContaining({ user_id: viewer.userId, role: 'viewer' })],
      next_cursor: null,
    });
    expect(refused.status).toBe(403);
  });

  test("answers the session's user, application and role with its CSRF token", async () => {
    const api = consoleRouter();
    const admin = await api.admin();

    const response = await api.call('GET', '/console/api/session');

    expect(response.body).toEqual({
      user: { user_id: admin.userId, email: 'ada@example.com', first_name: 'Ada', last_name: 'L' },
      app: { app_id: 'app_1', name: 'Casino' },
      role: 'admin',
      csrf_token: admin.csrf,
      expires_at: '2026-11-21T22:00:00.000Z',
    });
  });

  test('signing out ends the session on the server and clears the cookie; the old cookie then gets 401', async () => {
    const api = consoleRouter();
    const viewer = await api.signIn('viewer');

    const out = await api.call('POST', '/console/api/sign_out', { as: viewer });
    const after = await api.call('GET', '/console/api/session', { as: viewer });

    expect([out.status, out.body]).toEqual([200, { message: 'signed out' }]);
    expect(out.headers['Set-Cookie']).toMatch(/^urm_portal_session=;.*Max-Age=0/);
    expect(api.sessions.sessions.has(hashSecret(viewer.cookie.split('=')[1]!))).toBe(false);
    expect(after.status).toBe(401);
  });

  test('signing out needs the CSRF token: another site cannot sign anyone out', async () => {
    const api = consoleRouter();
    const viewer = await api.signIn('viewer');

    const response = await api.call('POST', '/console/api/sign_out', { as: viewer, csrf: false });

    expect(response.status).toBe(403);
    expect((await api.call('GET', '/console/api/session', { as: viewer })).status).toBe(200);
  });

  test('the audit log is read newest first by an admin', async () => {
    const api = consoleRouter();
    const other = await api.signIn('viewer');
    await api.call('POST', `/console/api/users/${other.userId}/role`, { body: { role: 'marketer' } });
    api.clock.advance(1000);
    await api.call('POST', `/console/api/users/${other.userId}/role`, { body: { role: 'viewer' } });

    const response = await api.call('GET', '/console/api/audit?limit=1');

    expect(response.body.entries).toEqual([expect.objectContaining({ action: 'user.role_changed', details: { from: 'marketer', to: 'viewer' } })]);
    expect(response.body.next_cursor).toEqual(expect.any(String));
  });
});
