import { describe, expect, test } from '@jest/globals';
import { redirectIntoPortal } from '../../../functions/enterprise-portal/enterprise-redirect/core';
import { signInEnterpriseUser } from '../../../functions/api/enterprise-sign-in/core';
import { showPortalHome } from '../../../functions/enterprise-portal/portal-home/core';
import { signOutOfPortal } from '../../../functions/enterprise-portal/portal-sign-out/core';
import type { App } from '../../../functions/domain/apps';
import { cookieSecureFor, hashSecret, newSecret } from '../../../functions/domain/enterprise';
import { clearedSessionCookie, sessionCookie } from '../../../functions/http/session-cookie';
import { FakeClock, memoryApps, MemorySessionStore, MemoryTokenStore, MemoryUserStore } from '../../support/enterprise';

const MINUTE = 60_000;
const apps: App[] = [
  { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z', portal_origin: 'https://portal.example.com' },
  { app_id: 'app_local', name: 'Local', created_at: '2026-01-01T00:00:00Z', portal_origin: 'http://127.0.0.1:3000' },
];

/** The whole flow on in-memory stores, sharing one clock the test moves. */
async function setup() {
  const clock = new FakeClock(new Date('2026-11-21T10:00:00Z'));
  const users = new MemoryUserStore();
  const tokens = new MemoryTokenStore();
  const sessions = new MemorySessionStore();
  for (const appId of ['app_1', 'app_local']) {
    await users.create({ app_id: appId, user_id: 'usr_1', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', created_at: '', role: 'admin' });
  }
  const ports = { users, tokens, sessions, apps: memoryApps(apps), now: clock.now };
  return {
    clock,
    tokens,
    sessions,
    signIn: signInEnterpriseUser({ ...ports, newToken: newSecret }),
    redirect: redirectIntoPortal({ ...ports, newSessionId: newSecret }),
    home: showPortalHome(ports),
    signOut: signOutOfPortal(ports),
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

describe('the portal home', () => {
  test('shows the user of a live session, and the application', async () => {
    const { signIn, redirect, home } = await setup();
    const result = await redirect((await signIn('app_1', { app_id: 'app_1', user_id: 'usr_1' })).token);
    expect(result.outcome).toBe('signed-in');
    if (result.outcome !== 'signed-in') return;

    const shown = await home(result.sessionId);

    expect(shown.signedIn).toBe(true);
    if (!shown.signedIn) return;
    expect(shown.appName).toBe('Casino');
    expect([shown.user.first_name, shown.user.last_name, shown.user.email]).toEqual(['Ada', 'Lovelace', 'ada@example.com']);
  });

  test('shows no one once the session has been unused for 30 minutes', async () => {
    const { clock, signIn, redirect, home } = await setup();
    const result = await redirect((await signIn('app_1', { app_id: 'app_1', user_id: 'usr_1' })).token);
    expect(result.outcome).toBe('signed-in');
    if (result.outcome !== 'signed-in') return;

    clock.advance(30 * MINUTE - 1);
    expect((await home(result.sessionId)).signedIn).toBe(true);
    clock.advance(30 * MINUTE - 1);
    expect((await home(result.sessionId)).signedIn).toBe(true);
    clock.advance(30 * MINUTE);
    expect((await home(result.sessionId)).signedIn).toBe(false);
  });

  test('shows no one 12 hours after the sign-in, however often the session was used', async () => {
    const { clock, signIn, redirect, home } = await setup();
    const result = await redirect((await signIn('app_1', { app_id: 'app_1', user_id: 'usr_1' })).token);
    expect(result.outcome).toBe('signed-in');
    if (result.outcome !== 'signed-in') return;

    for (let used = 0; used < 12 * 3 - 1; used += 1) {
      clock.advance(20 * MINUTE);
      expect((await home(result.sessionId)).signedIn).toBe(true);
    }
    clock.advance(20 * MINUTE - 1);
    expect((await home(result.sessionId)).signedIn).toBe(true);
    clock.advance(1);
    expect((await home(result.sessionId)).signedIn).toBe(false);
  });

  test('shows no one without a cookie, or with an unknown or malformed one', async () => {
    const { home } = await setup();

    for (const cookie of [undefined, '', newSecret(), 'not a session id']) {
      expect(await home(cookie)).toEqual({ signedIn: false });
    }
  });
});

describe('signing out of the portal', () => {
  test('ends the session, so the home shows no one, and clears the cookie as it was set', async () => {
    const { signIn, redirect, home, signOut } = await setup();
    const result = await redirect((await signIn('app_1', { app_id: 'app_1', user_id: 'usr_1' })).token);
    expect(result.outcome).toBe('signed-in');
    if (result.outcome !== 'signed-in') return;

    expect(await signOut(result.sessionId)).toEqual({ ended: true, cookieSecure: true });
    expect(await home(result.sessionId)).toEqual({ signedIn: false });
  });

  test('without a session ends nothing and still clears the cookie', async () => {
    const { signOut } = await setup();

    expect(await signOut(undefined)).toEqual({ ended: false, cookieSecure: false });
    expect(await signOut(newSecret())).toEqual({ ended: false, cookieSecure: false });
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
    expect(clearedSessionCookie(false)).toBe('urm_portal_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
  });
});
