import { describe, expect, test } from '@jest/globals';
import { makeEnterprisePortalHandler } from '../../../functions/enterprise-portal/make-handler';
import { redirectIntoPortal } from '../../../functions/enterprise-portal/redirect';
import { signInEnterpriseUser } from '../../../functions/api/enterprise-sign-in/core';
import type { App } from '../../../functions/domain/apps';
import type { PortalSession, StoredSignInToken } from '../../../functions/domain/enterprise';
import { hashSecret, newSecret } from '../../../functions/domain/secrets-random';
import { cookieSecureFor } from '../../../functions/domain/sessions';
import { clearCookie, consoleSessionCookie, sessionCookie } from '../../../functions/http/session-cookie';
import { MemoryAppStore } from '../../support/affiliates';
import { FakeClock, MemoryUserStore } from '../../support/enterprise';
import { apiEvent, context } from '../../support/lambda';
import { MemoryOneTimeTokenStore, MemorySessionStore } from '../../support/sessions';

const MINUTE = 60_000;
const apps: App[] = [
  { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z', portal_origin: 'https://portal.example.com' },
  { app_id: 'app_local', name: 'Local', created_at: '2026-01-01T00:00:00Z', portal_origin: 'http://127.0.0.1:3000' },
];

/** The whole flow on in-memory stores, sharing one clock the test moves. */
async function setup() {
  const clock = new FakeClock(new Date('2026-11-21T10:00:00Z'));
  const users = new MemoryUserStore();
  const tokens = new MemoryOneTimeTokenStore<StoredSignInToken>();
  const sessions = new MemorySessionStore<PortalSession>();
  for (const appId of ['app_1', 'app_local']) {
    await users.create({ app_id: appId, user_id: 'usr_1', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', created_at: '', role: 'admin' });
  }
  const ports = { users, tokens, sessions, apps: new MemoryAppStore(apps), now: clock.now };
  return {
    clock,
    tokens,
    sessions,
    signIn: signInEnterpriseUser({ ...ports, newToken: newSecret }),
    redirect: redirectIntoPortal({ ...ports, newSessionId: newSecret }),
  };
}

describe('the redirect into the portal', () => {
  test('consumes a fresh token and starts a session for its user, stored by hash', async () => {
    const { signIn, redirect, sessions } = await setup();
    const { token } = await signIn('app_1', { app_id: 'app_1', user_id: 'usr_1' });

    const result = await redirect(token);

    expect(result.outcome).toBe('signed-in');
    if (result.outcome !== 'signed-in') return;
    expect(result.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessions.sessions.get(hashSecret(result.sessionId))).toEqual({
      session_hash: hashSecret(result.sessionId),
      app_id: 'app_1',
      user_id: 'usr_1',
      created_at: '2026-11-21T10:00:00.000Z',
      last_seen: '2026-11-21T10:00:00.000Z',
      expires_at: '2026-11-21T22:00:00.000Z',
      cookie_secure: true,
    });
  });

  test('refuses a token the second time it is used', async () => {
    const { signIn, redirect } = await setup();
    const { token } = await signIn('app_1', { app_id: 'app_1', user_id: 'usr_1' });
    await redirect(token);

    expect(await redirect(token)).toEqual({ outcome: 'used' });
  });

  test('accepts a token just before 5 minutes have passed', async () => {
    const { clock, signIn, redirect } = await setup();
    const { token } = await signIn('app_1', { app_id: 'app_1', user_id: 'usr_1' });

    clock.advance(5 * MINUTE - 1);

    expect((await redirect(token)).outcome).toBe('signed-in');
  });

  test('refuses a token once 5 minutes have passed, and starts no session', async () => {
    const { clock, signIn, redirect, sessions } = await setup();
    const { token } = await signIn('app_1', { app_id: 'app_1', user_id: 'usr_1' });

    clock.advance(5 * MINUTE);

    expect(await redirect(token)).toEqual({ outcome: 'expired' });
    expect(sessions.sessions.size).toBe(0);
  });

  test('refuses an unknown token, and one that is not shaped like a token without looking it up', async () => {
    const { redirect, tokens } = await setup();
    let lookups = 0;
    const consume = tokens.consume.bind(tokens);
    tokens.consume = async (...args) => {
      lookups++;
      return consume(...args);
    };

    expect(await redirect(newSecret())).toEqual({ outcome: 'unknown' });
    expect(lookups).toBe(1);
    for (const malformed of [undefined, '', 'short', `${newSecret()}x`, `${'a'.repeat(42)}!`]) {
      expect(await redirect(malformed)).toEqual({ outcome: 'unknown' });
    }
    expect(lookups).toBe(1);
  });

  test('sets the cookie Secure for an HTTPS portal and not for a loopback HTTP one', async () => {
    const { signIn, redirect } = await setup();
    const secure = await redirect((await signIn('app_1', { app_id: 'app_1', user_id: 'usr_1' })).token);
    const local = await redirect((await signIn('app_local', { app_id: 'app_local', user_id: 'usr_1' })).token);

    expect([secure.outcome, local.outcome]).toEqual(['signed-in', 'signed-in']);
    if (secure.outcome !== 'signed-in' || local.outcome !== 'signed-in') return;
    expect(secure.session.cookie_secure).toBe(true);
    expect(local.session.cookie_secure).toBe(false);
  });
});

describe('the session cookie', () => {
  test('is Secure for every origin but plain-HTTP loopback ones', () => {
    expect(cookieSecureFor('https://portal.example.com')).toBe(true);
    expect(cookieSecureFor('https://localhost:8443')).toBe(true);
    expect(cookieSecureFor('http://portal.example.com')).toBe(true);
    expect(cookieSecureFor('http://localhost:3000')).toBe(false);
    expect(cookieSecureFor('http://127.0.0.1:3000')).toBe(false);
  });

  test('is HttpOnly, SameSite=Lax, for the whole site and lasts as long as the session', () => {
    expect(sessionCookie('abc', true)).toBe('urm_portal_session=abc; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax; Secure');
    expect(sessionCookie('abc', false)).toBe('urm_portal_session=abc; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax');
    expect(clearCookie(consoleSessionCookie, false)).toBe('urm_portal_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
  });
});

describe("the enterprise portal's function", () => {
  const portal = async () => {
    const { signIn, tokens, sessions, clock } = await setup();
    const handler = makeEnterprisePortalHandler({ tokens, sessions, apps: new MemoryAppStore(apps), now: clock.now, newSessionId: newSecret });
    const browse = (path: string, method = 'GET') => handler(apiEvent({ method, path }), context('EnterprisePortalFunction'));
    return { signIn, sessions, tokens, clock, browse };
  };

  test('GET /redirect with a fresh token starts a session and sends the browser to the console with the cookie', async () => {
    const { signIn, sessions, browse } = await portal();
    const { token } = await signIn('app_1', { app_id: 'app_1', user_id: 'usr_1' });

    const response = await browse(`/redirect?token=${token}`);

    expect(response.statusCode).toBe(303);
    expect(response.headers?.Location).toBe('console/');
    expect(response.headers?.['Content-Security-Policy']).toContain("default-src 'none'");
    const [, sessionId] =
      /^urm_portal_session=([A-Za-z0-9_-]{43}); Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax; Secure$/.exec(String(response.headers?.['Set-Cookie'])) ?? [];
    expect(sessions.sessions.has(hashSecret(sessionId))).toBe(true);
  });

  test('GET /redirect with a spent token answers 401 with a page that says so, and no cookie', async () => {
    const { signIn, browse } = await portal();
    const { token } = await signIn('app_1', { app_id: 'app_1', user_id: 'usr_1' });
    await browse(`/redirect?token=${token}`);

    const response = await browse(`/redirect?token=${token}`);

    expect(response.statusCode).toBe(401);
    expect(response.body).toContain('This sign-in link has already been used');
    expect(response.headers?.['Set-Cookie']).toBe(undefined);
  });

  test('a used, an expired and an unknown link each get a 401 page saying which it was, and nothing else differs', async () => {
    const { signIn, clock, browse } = await portal();
    const used = (await signIn('app_1', { app_id: 'app_1', user_id: 'usr_1' })).token;
    await browse(`/redirect?token=${used}`);
    const expired = (await signIn('app_1', { app_id: 'app_1', user_id: 'usr_1' })).token;
    clock.advance(5 * MINUTE);

    const pages = await Promise.all([used, expired, newSecret()].map((token) => browse(`/redirect?token=${token}`)));

    expect(pages.map((page) => [page.statusCode, /<h1>([^<]*)<\/h1>/.exec(String(page.body))?.[1]])).toEqual([
      [401, 'This sign-in link has already been used'],
      [401, 'This sign-in link has expired'],
      [401, 'This sign-in link is not valid'],
    ]);
    // Only the holder of a link learns which: the rest of the page, and its headers, are the same for all three.
    const rest = pages.map((page) => [String(page.body).replace(/<h1>[^<]*<\/h1>/, ''), page.headers]);
    expect(rest[1]).toEqual(rest[0]);
    expect(rest[2]).toEqual(rest[0]);
  });

  test('GET /redirect answers a 500 page that tells nothing of a failure', async () => {
    const { tokens, browse } = await portal();
    tokens.consume = async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.7:8000 table urm-sign-in-tokens');
    };

    const response = await browse(`/redirect?token=${newSecret()}`);

    expect(response.statusCode).toBe(500);
    expect(response.body).toMatch(/Something went wrong/);
    expect(response.body).not.toMatch(/ECONNREFUSED|urm-sign-in-tokens|Error/);
  });

  test('GET /portal, the former landing page, sends old links on to the console', async () => {
    const { browse } = await portal();

    const response = await browse('/portal');

    expect(response.statusCode).toBe(303);
    expect(response.headers?.Location).toBe('console/');
    expect(response.body).toContain('href="console/"');
  });

  test('an address or method no route declares gets the not-found page from the router', async () => {
    const { browse } = await portal();

    const answers = await Promise.all([browse('/portal/sign_out', 'POST'), browse('/redirect', 'POST'), browse('/portal', 'DELETE')]);

    expect(answers.map((response) => response.statusCode)).toEqual([404, 404, 404]);
    expect(answers[0].body).toContain('There is no such page');
  });
});
