import { commandLineActor } from '../../functions/domain/audit';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { redirectIntoPortal } from '../../functions/enterprise-portal/redirect';
import { signInEnterpriseUser } from '../../functions/api/enterprise-sign-in/core';
import { DynamoAppStore } from '../../functions/adapters/dynamo-app-store';
import { DynamoEnterpriseUserStore } from '../../functions/adapters/dynamo-enterprise-user-store';
import { DynamoOneTimeTokenStore } from '../../functions/adapters/dynamo-one-time-token-store';
import { DynamoSessionStore } from '../../functions/adapters/dynamo-session-store';
import type { PortalSession, StoredSignInToken } from '../../functions/domain/enterprise';
import { newSecret } from '../../functions/domain/secrets-random';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { tables } from '../../functions/manifest/resources';
import { FakeClock } from '../support/enterprise';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { readmeBlock, readmeCheckout, readmeVariables, type ReadmeCheckout } from '../support/readme';

let stack: TestStack;
let document: ReturnType<typeof localClients>['document'];
beforeAll(async () => {
  stack = await testStack();
  document = localClients(stack.endpoints).document;
});

const newEmail = (name = 'user') => `${name}-${randomUUID()}@example.com`;
const person = (email = newEmail()) => ({ email, first_name: 'Ada', last_name: 'Lovelace' });
const signUp = (users: unknown, key = stack.dev.server_key, appId = stack.dev.app_id) =>
  request(stack.baseUrl, 'POST', '/enterprises/sign_up', { key, body: { app_id: appId, users } });
const signIn = (userId: string, key = stack.dev.server_key, appId = stack.dev.app_id) =>
  request(stack.baseUrl, 'POST', '/enterprises/sign_in', { key, body: { app_id: appId, user_id: userId } });

/** A browser's first step: the redirect, not followed, so its cookie and target can be read. */
const openLink = (url: string) => fetch(url, { redirect: 'manual' });
const cookiePair = (response: Response) => (response.headers.get('set-cookie') ?? '').split(';')[0];

async function signedUpUser(): Promise<string> {
  const response = await signUp([person()]);
  expect(response.status).toBe(200);
  return response.body.users[0].user_id;
}

async function otherApplication(options: { portalOrigin?: string }) {
  const office = localBackOffice(document);
  const app = await createApp(office, { name: `other ${randomUUID()}`, portalOrigin: options.portalOrigin });
  return { appId: app.app_id, serverKey: (await issueKey(office, app.app_id, commandLineActor, 'server')).key };
}

describe('enterprise sign-up over HTTP', () => {
  test('creates users and answers them in input order with their ids', async () => {
    const users = [person(), { email: newEmail(), first_name: 'Alan', last_name: 'Turing' }];

    const response = await signUp(users);

    expect(response.status).toBe(200);
    expect(response.body.users.map((u: Record<string, unknown>) => ({ ...u, user_id: typeof u.user_id }))).toEqual(
      users.map((u) => ({ user_id: 'string', ...u, role: 'viewer', created: true })),
    );
    expect(response.body.users[0].user_id).not.toBe(response.body.users[1].user_id);
  });

  test('is idempotent by email, compared without case', async () => {
    const email = newEmail('Grace');
    const first = await signUp([person(email)]);

    const again = await signUp([{ email: email.toUpperCase(), first_name: 'Other', last_name: 'Name' }]);

    expect(again.status).toBe(200);
    expect(again.body.users).toEqual([{ ...first.body.users[0], created: false }]);
  });

  test('creates one user when the same email signs up in many requests at once', async () => {
    const email = newEmail('race');

    const responses = await Promise.all(Array.from({ length: 8 }, () => signUp([person(email)])));

    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    const answered = responses.map((r) => r.body.users[0]);
    expect(new Set(answered.map((u) => u.user_id)).size).toBe(1);
    expect(answered.filter((u) => u.created).length).toBe(1);
  });

  test('answers 400 naming each bad user and field, and writes none of the request', async () => {
    const good = person();

    const response = await signUp([good, { email: 'not-an-email', first_name: ' ', last_name: 'X' }]);

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      message: 'request body is invalid',
      errors: ['users[1].email must be a valid email address', 'users[1].first_name must be a non-blank name without control characters'],
    });
    const later = await signUp([good]);
    expect(later.body.users[0].created).toBe(true);
  });

  for (const [name, users, error] of [
    ['missing users', undefined, 'users is required'],
    ['no users', [], 'users must hold at least 1 item'],
    ['101 users', Array.from({ length: 101 }, () => person()), 'users must hold at most 100 items'],
    ['an empty last name', [{ ...person(), last_name: '' }], 'users[0].last_name must be a non-blank name without control characters'],
  ] as const) {
    test(`answers 400 for ${name}`, async () => {
      const response = await request(stack.baseUrl, 'POST', '/enterprises/sign_up', {
        key: stack.dev.server_key,
        body: users === undefined ? { app_id: stack.dev.app_id } : { app_id: stack.dev.app_id, users },
      });

      expect(response.status).toBe(400);
      expect(response.body.message).toBe('request body is invalid');
      expect(response.body.errors.includes(error)).toBeTruthy();
    });
  }

  test('answers 403 for a key of another scope or a body naming another application', async () => {
    const wrongScope = await signUp([person()], stack.dev.comms_key);
    const wrongApp = await signUp([person()], stack.dev.server_key, 'app_someone_else');

    expect([wrongScope.status, wrongScope.body]).toEqual([403, { message: 'Forbidden' }]);
    expect([wrongApp.status, wrongApp.body]).toEqual([403, { message: 'Forbidden' }]);
  });
});

describe('enterprise sign-in and the redirect over HTTP', () => {
  test('sign_in → redirect lands on the console, whose session names the user; the link then is refused', async () => {
    const userId = await signedUpUser();

    const signedIn = await signIn(userId);
    expect(signedIn.status).toBe(200);
    const { token, redirect_url: redirectUrl, expires_at: expiresAt } = signedIn.body;
    expect(redirectUrl).toBe(`${stack.baseUrl}/redirect?token=${token}`);
    const lifetime = Date.parse(expiresAt) - Date.now();
    expect(lifetime > 4 * 60_000 && lifetime <= 5 * 60_000).toBeTruthy();

    const redirect = await openLink(redirectUrl);
    expect(redirect.status).toBe(303);
    expect(new URL(redirect.headers.get('location')!, redirectUrl).href).toBe(`${stack.baseUrl}/console/`);
    expect(redirect.headers.get('set-cookie') ?? '').toMatch(/^urm_portal_session=[\w-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax$/);

    const landing = await fetch(`${stack.baseUrl}/console/`, { headers: { Cookie: cookiePair(redirect) } });
    expect(landing.status).toBe(200);
    expect(landing.headers.get('content-type') ?? '').toMatch(/^text\/html; charset=utf-8/);
    expect(await landing.text()).toMatch(/<script type="module" src="\/console\/assets\/console-[\w]+\.js"><\/script>/);
    const session = await fetch(`${stack.baseUrl}/console/api/session`, { headers: { Cookie: cookiePair(redirect) } });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { first_name: string } }).user.first_name).toBe('Ada');

    const home = await fetch(`${stack.baseUrl}/portal`, { headers: { Cookie: cookiePair(redirect) }, redirect: 'manual' });
    expect(home.status).toBe(303);
    expect(new URL(home.headers.get('location')!, `${stack.baseUrl}/portal`).href).toBe(`${stack.baseUrl}/console/`);

    const reused = await openLink(redirectUrl);
    expect(reused.status).toBe(401);
    expect(await reused.text()).toMatch(/This sign-in link has already been used/);
    expect(reused.headers.get('set-cookie')).toBe(null);
  });

  test('lets exactly one of many simultaneous uses of a link through', async () => {
    const { redirect_url: redirectUrl } = (await signIn(await signedUpUser())).body;

    const responses = await Promise.all(Array.from({ length: 10 }, () => openLink(redirectUrl)));

    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([303, ...Array(9).fill(401)]);
  });

  test('refuses an unknown or malformed token with 401', async () => {
    for (const query of [`?token=${newSecret()}`, '?token=nope', '']) {
      const response = await openLink(`${stack.baseUrl}/redirect${query}`);

      expect(response.status).toBe(401);
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await response.text()).toMatch(/This sign-in link is not valid/);
    }
  });

  test('the enterprise portal answers an address it does not have with its 404, not a gateway refusal', async () => {
    const redirect = await openLink((await signIn(await signedUpUser())).body.redirect_url);

    const signOut = await fetch(`${stack.baseUrl}/portal/sign_out`, { method: 'POST', headers: { Cookie: cookiePair(redirect) } });
    const postRedirect = await fetch(`${stack.baseUrl}/redirect`, { method: 'POST' });

    expect([signOut.status, postRedirect.status]).toEqual([404, 404]);
    expect(signOut.headers.get('content-type') ?? '').toMatch(/^text\/html/);
  });

  test('answers 404 for an unknown user', async () => {
    const response = await signIn('usr_nobody');

    expect([response.status, response.body]).toEqual([404, { message: 'user not found' }]);
  });

  test("answers 404 for another application's user, and 403 for a body naming the other application", async () => {
    const other = await otherApplication({ portalOrigin: 'https://portal.other.example' });
    const userOfDemo = await signedUpUser();

    const asOther = await signIn(userOfDemo, other.serverKey, other.appId);
    const naming = await signIn(userOfDemo, other.serverKey, stack.dev.app_id);

    expect([asOther.status, asOther.body]).toEqual([404, { message: 'user not found' }]);
    expect([naming.status, naming.body]).toEqual([403, { message: 'Forbidden' }]);
  });

  test("builds the redirect address on the application's own portal origin, with a Secure cookie for HTTPS", async () => {
    const other = await otherApplication({ portalOrigin: 'https://portal.other.example' });
    const userId = (await signUp([person()], other.serverKey, other.appId)).body.users[0].user_id;

    const { token, redirect_url: redirectUrl } = (await signIn(userId, other.serverKey, other.appId)).body;
    // The same route, reached here on the local origin.
    const redirect = await openLink(`${stack.baseUrl}/redirect?token=${token}`);

    expect(redirectUrl).toBe(`https://portal.other.example/redirect?token=${token}`);
    expect(redirect.headers.get('set-cookie') ?? '').toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
  });

  test('answers 409 when the application has no portal origin', async () => {
    const other = await otherApplication({});
    const userId = (await signUp([person()], other.serverKey, other.appId)).body.users[0].user_id;

    const response = await signIn(userId, other.serverKey, other.appId);

    expect(response.status).toBe(409);
    expect(response.body.message).toMatch(/no portal origin/);
  });
});

describe('sign-in tokens in DynamoDB, with a clock the test moves', () => {
  /** The sign-in and redirect cores on the stack's real tables, sharing a fake clock. */
  function cores(clock: FakeClock) {
    const ports = {
      users: new DynamoEnterpriseUserStore(document, tables.enterpriseUsers.localName),
      apps: new DynamoAppStore(document, tables.apps.localName),
      tokens: new DynamoOneTimeTokenStore<StoredSignInToken>(document, tables.signInTokens.localName),
      sessions: new DynamoSessionStore<PortalSession>(document, tables.portalSessions.localName),
      now: clock.now,
    };
    return {
      signIn: signInEnterpriseUser({ ...ports, newToken: newSecret }),
      redirect: redirectIntoPortal({ ...ports, newSessionId: newSecret }),
    };
  }

  test('a token is refused as expired once 5 minutes have passed, though DynamoDB has not swept it', async () => {
    const clock = new FakeClock(new Date());
    const { signIn: issue, redirect } = cores(clock);
    const { token } = await issue(stack.dev.app_id, { app_id: stack.dev.app_id, user_id: await signedUpUser() });

    clock.advance(5 * 60_000);

    expect(await redirect(token)).toEqual({ outcome: 'expired' });
  });

  test('a token is accepted a millisecond before 5 minutes have passed, then is used', async () => {
    const clock = new FakeClock(new Date());
    const { signIn: issue, redirect } = cores(clock);
    const { token } = await issue(stack.dev.app_id, { app_id: stack.dev.app_id, user_id: await signedUpUser() });

    clock.advance(5 * 60_000 - 1);

    expect((await redirect(token)).outcome).toBe('signed-in');
    expect(await redirect(token)).toEqual({ outcome: 'used' });
  });

  test('an expired token is refused over HTTP too', async () => {
    // Issued by the core as if six minutes ago; the stack's handler judges it with the real clock.
    const clock = new FakeClock(new Date(Date.now() - 6 * 60_000));
    const { token } = await cores(clock).signIn(stack.dev.app_id, { app_id: stack.dev.app_id, user_id: await signedUpUser() });

    const response = await openLink(`${stack.baseUrl}/redirect?token=${token}`);

    expect(response.status).toBe(401);
    expect(await response.text()).toMatch(/This sign-in link has expired/);
  });
});

describe('the README enterprise example', () => {
  let checkout: ReadmeCheckout;
  beforeAll(() => {
    checkout = readmeCheckout(stack, 'enterprise');
  });
  afterAll(() => checkout.remove());

  test('signs a user up and answers a sign-in link that opens the console as that user', async () => {
    const lines = await checkout.run(`${readmeVariables()}\n${readmeBlock('enterprise')}`);
    const signedIn = JSON.parse(lines.at(-1)!);

    expect(signedIn.redirect_url).toMatch(new RegExp(`^${stack.baseUrl}/redirect\\?token=[\\w-]{43}$`));
    const redirect = await openLink(signedIn.redirect_url);
    const session = await fetch(`${stack.baseUrl}/console/api/session`, { headers: { Cookie: cookiePair(redirect) } });
    expect(redirect.headers.get('location')).toBe('console/');
    expect(((await session.json()) as { user: { first_name: string; last_name: string } }).user).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
  });
});
