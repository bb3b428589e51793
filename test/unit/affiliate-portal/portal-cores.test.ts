import { beforeEach, describe, expect, test } from '@jest/globals';
import { attemptKey, portalLimits, type ResetToken } from '../../../functions/domain/affiliate-portal';
import type { Channel } from '../../../functions/domain/channels';
import type { OutgoingMail } from '../../../functions/domain/email';
import { checkResetToken, completePasswordReset, requestPasswordReset } from '../../../functions/affiliate-portal/reset';
import { currentAffiliate } from '../../../functions/affiliate-portal/session';
import { signInToPortal } from '../../../functions/affiliate-portal/sign-in';
import { hashSecret } from '../../../functions/domain/secrets-random';
import { sessionLimits } from '../../../functions/domain/sessions';
import { fakePasswords, MemoryAffiliateAccounts, MemoryAffiliateSessionStore, MemorySignInAttempts, portalAffiliate } from '../../support/affiliate-portal';
import { FakeClock } from '../../support/enterprise';
import { MemoryOneTimeTokenStore } from '../../support/sessions';
import { MemorySenderStore } from '../../support/settings';

/** Session ids of the shape newSecret makes: `session-1xxx…` (43 characters). */
const sessionId = (n: number) => `session-${n}`.padEnd(43, 'x');
const sequentialSessionIds = () => {
  let next = 0;
  return () => sessionId(++next);
};

const affiliate = portalAffiliate;

let clock: FakeClock;
let accounts: MemoryAffiliateAccounts;
let sessions: MemoryAffiliateSessionStore;
let attempts: MemorySignInAttempts;
let signIn: ReturnType<typeof signInToPortal>;
const request = (login: string, password: string, clientIp = '203.0.113.7') => ({ appId: 'app_1', login, password, clientIp, cookieSecure: true });

beforeEach(() => {
  clock = new FakeClock(new Date('2026-11-23T08:00:00.000Z'));
  accounts = new MemoryAffiliateAccounts();
  accounts.add(affiliate());
  sessions = new MemoryAffiliateSessionStore();
  attempts = new MemorySignInAttempts();
  signIn = signInToPortal({
    affiliates: accounts,
    sessions,
    attempts,
    verifyPassword: fakePasswords.verify,
    decoyHash: async () => 'hash:nobody',
    newSessionId: sequentialSessionIds(),
    now: clock.now,
  });
});

describe('signing in', () => {
  test('the right password with the username or the email starts a session of that affiliate, stored only by its hash', async () => {
    const byName = await signIn(request('ada', 'correct horse'));
    const byEmail = await signIn(request(' ADA@example.com ', 'correct horse'));

    expect(byName).toMatchObject({ outcome: 'signed-in', sessionId: sessionId(1) });
    expect(byEmail).toMatchObject({ outcome: 'signed-in', sessionId: sessionId(2) });
    expect([...sessions.sessions.keys()]).toEqual([hashSecret(sessionId(1)), hashSecret(sessionId(2))]);
    expect(sessions.sessions.get(hashSecret(sessionId(1)))).toMatchObject({ app_id: 'app_1', affiliate_id: 'aff_1', created_at: '2026-11-23T08:00:00.000Z' });
  });

  test('a wrong password and an unknown login get the same answer', async () => {
    expect(await signIn(request('ada', 'wrong'))).toEqual({ outcome: 'invalid' });
    expect(await signIn(request('nobody', 'correct horse'))).toEqual({ outcome: 'invalid' });
  });

  test('the fifth wrong password locks the account for the window, and then even the right password is refused', async () => {
    const answers = [];
    for (let i = 0; i < portalLimits.failuresPerAccount; i++) answers.push((await signIn(request('ada', `wrong ${i}`))).outcome);

    const withRightPassword = await signIn(request('ada', 'correct horse'));

    expect(answers).toEqual(['invalid', 'invalid', 'invalid', 'invalid', 'locked']);
    expect(withRightPassword).toEqual({ outcome: 'locked', until: new Date('2026-11-23T08:15:00.000Z') });
    expect(sessions.sessions.size).toBe(0);
  });

  test('when the window has ended, the right password signs in again', async () => {
    for (let i = 0; i < portalLimits.failuresPerAccount; i++) await signIn(request('ada', 'wrong'));
    clock.advance(portalLimits.attemptWindowMs);

    expect((await signIn(request('ada', 'correct horse'))).outcome).toBe('signed-in');
  });

  test('one client failing on many accounts is locked after twenty, for every account', async () => {
    for (let i = 0; i < portalLimits.failuresPerClient; i++) await signIn(request(`user-${i}`, 'guess'));

    expect((await signIn(request('ada', 'correct horse'))).outcome).toBe('locked');
    expect((await signIn(request('ada', 'correct horse', '198.51.100.1'))).outcome).toBe('signed-in');
  });

  test('a pending or suspended affiliate with the right password gets no session, and is told why', async () => {
    accounts.add(affiliate({ affiliate_id: 'aff_2', username: 'pat', email: 'pat@example.com', status: 'pending' }));
    accounts.add(affiliate({ affiliate_id: 'aff_3', username: 'sam', email: 'sam@example.com', status: 'suspended' }));

    expect(await signIn(request('pat', 'correct horse'))).toEqual({ outcome: 'pending' });
    expect(await signIn(request('sam', 'correct horse'))).toEqual({ outcome: 'suspended' });
    expect(sessions.sessions.size).toBe(0);
  });

  test("another application's affiliate cannot sign in here", async () => {
    accounts.add(affiliate({ app_id: 'app_2', affiliate_id: 'aff_9', username: 'eve', email: 'eve@example.com' }));

    expect(await signIn(request('eve', 'correct horse'))).toEqual({ outcome: 'invalid' });
  });
});

describe('the current session', () => {
  const current = () => currentAffiliate({ sessions, affiliates: accounts, now: clock.now });

  test('is live while used within 30 minutes, and each use keeps it alive', async () => {
    await signIn(request('ada', 'correct horse'));
    clock.advance(sessionLimits.idleMs - 1000);
    expect((await current()('app_1', sessionId(1))).signedIn).toBe(true);
    clock.advance(sessionLimits.idleMs - 1000);

    expect((await current()('app_1', sessionId(1))).signedIn).toBe(true);
  });

  test('ends after 30 minutes unused', async () => {
    await signIn(request('ada', 'correct horse'));
    clock.advance(sessionLimits.idleMs);

    expect((await current()('app_1', sessionId(1))).signedIn).toBe(false);
  });

  test("is not valid at another application's portal", async () => {
    await signIn(request('ada', 'correct horse'));

    expect((await current()('app_2', sessionId(1))).signedIn).toBe(false);
  });

  test('ends when the affiliate is suspended', async () => {
    await signIn(request('ada', 'correct horse'));
    accounts.byId.get('app_1#aff_1')!.status = 'suspended';

    expect((await current()('app_1', sessionId(1))).signedIn).toBe(false);
  });
});

describe('password reset', () => {
  const channel: Channel = {
    app_id: 'app_1',
    channel_id: 'ch_1',
    name: 'Main',
    from_email: 'team@casino.example',
    from_name: 'Casino',
    enabled: true,
    created_at: '2026-01-01T00:00:00Z',
  };
  let tokens: MemoryOneTimeTokenStore<ResetToken>;
  let sent: OutgoingMail[];
  const app = { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z' };

  let senders: MemorySenderStore;

  beforeEach(() => {
    tokens = new MemoryOneTimeTokenStore<ResetToken>();
    sent = [];
    senders = new MemorySenderStore([{ app_id: 'app_1', sender: 'casino.example', kind: 'domain', assigned_at: '2026-01-01T00:00:00.000Z' }]);
  });
  const ask = (email: string, channels: Channel[] = [{ ...channel, channel_id: 'ch_0', enabled: false }, channel]) =>
    requestPasswordReset({
      affiliates: accounts,
      tokens,
      channels: { listByApp: async (appId) => (appId === 'app_1' ? channels : []) },
      senders,
      attempts,
      mailer: {
        send: async (mail) => {
          sent.push(mail);
          return `msg-${sent.length}`;
        },
      },
      newToken: () => 'A'.repeat(43),
      now: clock.now,
    })(
      app,
      email,
      (token) => `https://portal.example/affiliates/app_1/reset?token=${token}`,
      (link, name) => ({ subject: 'Reset', text: `${name} ${link}`, html: link }),
    );
  const complete = () => completePasswordReset({ tokens, affiliates: accounts, sessions, attempts, hashPassword: fakePasswords.hash, now: clock.now });

  test("sends through the first enabled channel whose sender the application still holds, never one released or another's", async () => {
    const elsewhere = { ...channel, channel_id: 'ch_other', from_email: 'news@other.example' };

    expect(await ask('ada@example.com', [elsewhere, channel])).toBe('sent');
    expect(sent.map((mail) => mail.from)).toEqual(['"Casino" <team@casino.example>']);
    await senders.release('app_1', 'casino.example');
    expect(await ask('ada@example.com', [elsewhere, channel])).toBe('no-channel');
    expect(sent).toHaveLength(1);
  });

  test("a known email gets a link through the application's first enabled channel; the token is stored only hashed, for an hour", async () => {
    expect(await ask('ADA@example.com')).toBe('sent');

    expect(sent).toHaveLength(1);
    expect(sent[0].from).toBe('"Casino" <team@casino.example>');
    expect(sent[0].tags).toEqual({ app_id: 'app_1', channel_id: 'ch_1' });
    expect(sent[0].text).toContain(`reset?token=${'A'.repeat(43)}`);
    expect([...tokens.tokens.keys()]).toEqual([hashSecret('A'.repeat(43))]);
    expect(tokens.tokens.get(hashSecret('A'.repeat(43)))!.expires_at).toBe('2026-11-23T09:00:00.000Z');
  });

  test('an unknown email sends nothing', async () => {
    expect(await ask('nobody@example.com')).toBe('no-affiliate');
    expect(sent).toHaveLength(0);
  });

  test('the link sets a new password once, ends every session of the affiliate and lifts a lockout', async () => {
    await signIn(request('ada', 'correct horse'));
    for (let i = 0; i < portalLimits.failuresPerAccount; i++) await signIn(request('ada', 'wrong', `192.0.2.${i}`));
    await ask('ada@example.com');

    const first = await complete()('app_1', 'A'.repeat(43), 'a new password', 'a new password');
    const second = await complete()('app_1', 'A'.repeat(43), 'another one!', 'another one!');

    expect(first).toEqual({ outcome: 'reset', affiliateId: 'aff_1', sessionsEnded: 1 });
    expect(second).toEqual({ outcome: 'used' });
    expect(accounts.byId.get('app_1#aff_1')!.password_hash).toBe('hash:a new password');
    expect(sessions.sessions.size).toBe(0);
    expect(attempts.windows.has(attemptKey({ kind: 'account', appId: 'app_1', login: 'ada' }))).toBe(false);
    expect((await signIn(request('ada', 'a new password', '192.0.2.99'))).outcome).toBe('signed-in');
  });

  test('the link no longer works after an hour', async () => {
    await ask('ada@example.com');
    clock.advance(portalLimits.resetTokenLifetimeMs);

    expect(await checkResetToken({ tokens, now: clock.now })('app_1', 'A'.repeat(43))).toBe('expired');
    expect(await complete()('app_1', 'A'.repeat(43), 'a new password', 'a new password')).toEqual({ outcome: 'expired' });
    expect(accounts.byId.get('app_1#aff_1')!.password_hash).toBe('hash:correct horse');
  });

  test('a too-short or mistyped password is refused without using the link', async () => {
    await ask('ada@example.com');

    expect(await complete()('app_1', 'A'.repeat(43), 'short', 'short')).toEqual({ outcome: 'problems', errors: { password: 'Use at least 8 characters.' } });
    expect(await complete()('app_1', 'A'.repeat(43), 'a new password', 'a new passwrod')).toEqual({
      outcome: 'problems',
      errors: { confirm: 'The two passwords are not the same.' },
    });
    expect(await checkResetToken({ tokens, now: clock.now })('app_1', 'A'.repeat(43))).toBe('consumed');
  });
});
