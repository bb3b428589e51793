/**
 * The back office's console API over HTTP on the local stack, as the console
 * will call it: signed in through /enterprises/sign_in and /redirect, with the
 * session cookie and the X-CSRF-Token the session endpoint gives.
 */
import { commandLineActor } from '../../functions/domain/audit';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { request, type JsonResponse } from '../support/http';
import { adminCli, testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

interface Tenant {
  appId: string;
  serverKey: string;
}

/** A fresh application with its own portal origin (the local stack's), so its first user is its admin. */
async function newTenant(): Promise<Tenant> {
  const office = localBackOffice(localClients(stack.endpoints).document);
  const app = await createApp(office, { name: `console ${randomUUID()}`, portalOrigin: stack.baseUrl });
  return { appId: app.app_id, serverKey: (await issueKey(office, app.app_id, commandLineActor, 'server')).key };
}

async function signUp(tenant: Tenant, users: { email: string; role?: string }[]) {
  const response = await request(stack.baseUrl, 'POST', '/enterprises/sign_up', {
    key: tenant.serverKey,
    body: { app_id: tenant.appId, users: users.map((user) => ({ first_name: 'Ada', last_name: 'Lovelace', ...user })) },
  });
  expect(response.status).toBe(200);
  return response.body.users as { user_id: string; email: string; role: string }[];
}

interface Session {
  cookie: string;
  csrf: string;
  get: (path: string) => Promise<JsonResponse>;
  post: (path: string, body?: unknown, csrf?: string) => Promise<JsonResponse>;
}

/** Signs the user in as a browser does: sign_in, then /redirect, keeping the cookie. */
async function signIn(tenant: Tenant, userId: string): Promise<Session> {
  const link = await request(stack.baseUrl, 'POST', '/enterprises/sign_in', { key: tenant.serverKey, body: { app_id: tenant.appId, user_id: userId } });
  expect(link.status).toBe(200);
  const redirect = await fetch(link.body.redirect_url, { redirect: 'manual' });
  expect(redirect.status).toBe(303);
  const cookie = (redirect.headers.get('set-cookie') ?? '').split(';')[0];
  const get = (path: string) => request(stack.baseUrl, 'GET', path, { headers: { Cookie: cookie } });
  const who = await get('/console/api/session');
  expect(who.status).toBe(200);
  const csrf = who.body.csrf_token as string;
  const post = (path: string, body: unknown = {}, token = csrf) =>
    request(stack.baseUrl, 'POST', path, { body, headers: { Cookie: cookie, 'X-CSRF-Token': token } });
  return { cookie, csrf, get, post };
}

describe('the console API', () => {
  test('tells who is signed in: user, application, role and the CSRF token', async () => {
    const tenant = await newTenant();
    const email = `ada-${randomUUID()}@example.com`;
    const [ada] = await signUp(tenant, [{ email }]);

    const session = await signIn(tenant, ada.user_id);
    const who = await session.get('/console/api/session');

    expect(who.body).toEqual({
      user: { user_id: ada.user_id, email, first_name: 'Ada', last_name: 'Lovelace' },
      app: { app_id: tenant.appId, name: expect.stringMatching(/^console /) },
      role: 'admin',
      csrf_token: session.csrf,
      expires_at: expect.any(String),
    });
    expect(who.headers.get('cache-control')).toBe('no-store');
  });

  test('answers 401 JSON without a session cookie', async () => {
    const response = await request(stack.baseUrl, 'GET', '/console/api/session');

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: 'not signed in' });
  });

  test('lets an admin list users and change a role, audited; the changed user sees the new role on the next call', async () => {
    const tenant = await newTenant();
    const [admin, viewer] = await signUp(tenant, [{ email: `a-${randomUUID()}@example.com` }, { email: `v-${randomUUID()}@example.com` }]);
    expect([admin.role, viewer.role]).toEqual(['admin', 'viewer']);
    const adminSession = await signIn(tenant, admin.user_id);
    const viewerSession = await signIn(tenant, viewer.user_id);

    const users = await adminSession.get('/console/api/users');
    const changed = await adminSession.post(`/console/api/users/${viewer.user_id}/role`, { role: 'marketer' });
    const log = await adminSession.get('/console/api/audit');

    expect(users.status).toBe(200);
    expect(users.body.users.map((user: { user_id: string; role: string }) => [user.user_id, user.role])).toEqual([
      [admin.user_id, 'admin'],
      [viewer.user_id, 'viewer'],
    ]);
    expect(changed.status).toBe(200);
    expect(changed.body.user.role).toBe('marketer');
    expect(log.body.entries).toEqual([
      expect.objectContaining({
        actor: { user_id: admin.user_id, email: admin.email },
        action: 'user.role_changed',
        target: `user:${viewer.user_id}`,
        details: { from: 'viewer', to: 'marketer' },
      }),
      // The tenant's server key, issued through the command line's use case when the test made the application.
      expect.objectContaining({ actor: { user_id: 'cli', email: 'admin command line' }, action: 'key.issued' }),
    ]);
    expect((await viewerSession.get('/console/api/session')).body.role).toBe('marketer');
  });

  test('refuses a viewer the users, the audit log and a role change with 403 from the server', async () => {
    const tenant = await newTenant();
    const [admin, viewer] = await signUp(tenant, [{ email: `a-${randomUUID()}@example.com` }, { email: `v-${randomUUID()}@example.com` }]);
    const session = await signIn(tenant, viewer.user_id);

    expect((await session.get('/console/api/users')).status).toBe(403);
    expect((await session.get('/console/api/audit')).status).toBe(403);
    const promote = await session.post(`/console/api/users/${viewer.user_id}/role`, { role: 'admin' });
    expect(promote.status).toBe(403);
    expect(promote.body).toEqual({ message: 'Forbidden' });
    expect(admin.role).toBe('admin');
  });

  test('refuses a role change without the CSRF token, and one that would leave no admin', async () => {
    const tenant = await newTenant();
    const [admin] = await signUp(tenant, [{ email: `a-${randomUUID()}@example.com` }]);
    const session = await signIn(tenant, admin.user_id);

    const withoutToken = await request(stack.baseUrl, 'POST', `/console/api/users/${admin.user_id}/role`, {
      body: { role: 'viewer' },
      headers: { Cookie: session.cookie },
    });
    const lastAdmin = await session.post(`/console/api/users/${admin.user_id}/role`, { role: 'viewer' });

    expect(withoutToken.status).toBe(403);
    expect(withoutToken.body).toEqual({ message: 'CSRF token missing or invalid' });
    expect(lastAdmin.status).toBe(409);
    expect((await session.get('/console/api/session')).body.role).toBe('admin');
  });

  test("never reaches another application's user by its id: 404, and its role stays", async () => {
    const mine = await newTenant();
    const theirs = await newTenant();
    const [admin] = await signUp(mine, [{ email: `a-${randomUUID()}@example.com` }]);
    const [, other] = await signUp(theirs, [{ email: `x-${randomUUID()}@example.com` }, { email: `y-${randomUUID()}@example.com` }]);
    const session = await signIn(mine, admin.user_id);

    const response = await session.post(`/console/api/users/${other.user_id}/role`, { role: 'admin' });
    const users = await session.get(`/console/api/users?cursor=${other.user_id}`);

    expect(response.status).toBe(404);
    expect(users.body).toEqual({ users: [], next_cursor: null });
    const theirAdmin = await signIn(theirs, other.user_id);
    expect((await theirAdmin.get('/console/api/session')).body.role).toBe('viewer');
  });

  test('signing out ends the session on the server: the old cookie gets 401', async () => {
    const tenant = await newTenant();
    const [admin] = await signUp(tenant, [{ email: `a-${randomUUID()}@example.com` }]);
    const session = await signIn(tenant, admin.user_id);

    const out = await session.post('/console/api/sign_out');

    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^urm_portal_session=; Path=\/; Max-Age=0/);
    expect((await session.get('/console/api/session')).status).toBe(401);
  });
});

describe('npm run admin -- portal link', () => {
  test("prints a one-time sign-in link for the demo application's admin that opens a console session", async () => {
    const out = await adminCli(stack.dataDir, ['portal', 'link', '--app', stack.dev.app_id, '--email', 'admin@demo.example']);
    const link = JSON.parse(out) as { redirect_url: string };

    const redirect = await fetch(link.redirect_url, { redirect: 'manual' });
    const cookie = (redirect.headers.get('set-cookie') ?? '').split(';')[0];
    const who = await request(stack.baseUrl, 'GET', '/console/api/session', { headers: { Cookie: cookie } });

    expect(who.status).toBe(200);
    expect(who.body.user.email).toBe('admin@demo.example');
    expect(who.body.role).toBe('admin');
  });
});
