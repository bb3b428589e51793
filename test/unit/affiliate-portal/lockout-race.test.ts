/**
 * The sign-in lockout against attempts sent at once (issue 25, item 2): each
 * attempt is counted before its password is checked, so a burst gets no more
 * checks than the limit, and a right password among them starts no session.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { portalLimits } from '../../../functions/domain/affiliate-portal';
import { signInToPortal } from '../../../functions/affiliate-portal/sign-in';
import { fakePasswords, MemoryAffiliateAccounts, MemoryAffiliateSessionStore, MemorySignInAttempts, portalAffiliate } from '../../support/affiliate-portal';
import { FakeClock } from '../../support/enterprise';

const address = '203.0.113.7';
const right = 'correct horse';

let clock: FakeClock;
let sessions: MemoryAffiliateSessionStore;
let attempts: MemorySignInAttempts;
/** The passwords checked, in order: what scrypt would have been asked. */
let checked: string[];
let signIn: ReturnType<typeof signInToPortal>;
const request = (login: string, password: string, clientIp = address) => ({ appId: 'app_1', login, password, clientIp, cookieSecure: true });

beforeEach(() => {
  clock = new FakeClock(new Date('2026-11-23T08:00:00.000Z'));
  const accounts = new MemoryAffiliateAccounts();
  accounts.add(portalAffiliate());
  sessions = new MemoryAffiliateSessionStore();
  attempts = new MemorySignInAttempts();
  checked = [];
  let next = 0;
  signIn = signInToPortal({
    affiliates: accounts,
    sessions,
    attempts,
    // As scrypt does, a check takes a while: every attempt of a burst has arrived before the first check ends.
    verifyPassword: async (password, stored) => {
      checked.push(password);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return fakePasswords.verify(password, stored);
    },
    decoyHash: async () => 'hash:nobody',
    newSessionId: () => `session-${++next}`.padEnd(43, 'x'),
    now: clock.now,
  });
});

/** Sixteen passwords, all wrong but the one at `rightAt`. */
const sixteen = (rightAt: number) => Array.from({ length: 16 }, (_, i) => (i === rightAt ? right : `wrong ${i}`));

describe('sixteen sign-ins to one account at once', () => {
  for (const rightAt of [0, portalLimits.failuresPerAccount - 1, 15]) {
    test(`with the right password ${rightAt + 1}${rightAt === 0 ? 'st' : 'th'}: at most ${portalLimits.failuresPerAccount} passwords are checked and no session starts`, async () => {
      const outcomes = await Promise.all(sixteen(rightAt).map((password) => signIn(request('ada', password))));

      expect(checked.length).toBeLessThanOrEqual(portalLimits.failuresPerAccount);
      expect(outcomes.map((outcome) => outcome.outcome)).not.toContain('signed-in');
      expect(sessions.sessions.size).toBe(0);
    });
  }

  test('leave the account locked: the right password alone, from another address, is refused until the window ends', async () => {
    await Promise.all(sixteen(0).map((password) => signIn(request('ada', password))));
    const checksOfTheBurst = checked.length;

    const after = await signIn(request('ada', right, '198.51.100.1'));
    clock.advance(portalLimits.attemptWindowMs);
    const nextWindow = await signIn(request('ada', right, '198.51.100.1'));

    expect(after).toEqual({ outcome: 'locked', until: new Date('2026-11-23T08:15:00.000Z') });
    expect(checked.length).toBe(checksOfTheBurst + 1);
    expect(nextWindow.outcome).toBe('signed-in');
  });
});

describe('sixteen sign-ins from one address at once', () => {
  const left = 4;
  /** The address has failed on other accounts until only `left` attempts remain in its window. */
  const spendAddress = async () => {
    for (let i = 0; i < portalLimits.failuresPerClient - left; i++) await signIn(request(`earlier-${i}`, 'guess'));
    checked.length = 0;
  };

  for (const rightAt of [0, left - 1, 15]) {
    test(`on sixteen accounts, with the right password ${rightAt + 1}${rightAt === 0 ? 'st' : 'th'}: at most the ${left} attempts the address has left are checked and no session starts`, async () => {
      await spendAddress();
      const logins = Array.from({ length: 16 }, (_, i) => (i === rightAt ? 'ada' : `someone-${i}`));

      const outcomes = await Promise.all(logins.map((login, i) => signIn(request(login, i === rightAt ? right : 'guess'))));

      expect(checked.length).toBeLessThanOrEqual(left);
      expect(outcomes.map((outcome) => outcome.outcome)).not.toContain('signed-in');
      expect(sessions.sessions.size).toBe(0);
    });
  }
});

describe('one attempt after another, as a person signs in', () => {
  test('four wrong passwords and then the right one sign in', async () => {
    for (let i = 0; i < portalLimits.failuresPerAccount - 1; i++) expect((await signIn(request('ada', `wrong ${i}`))).outcome).toBe('invalid');

    expect((await signIn(request('ada', right))).outcome).toBe('signed-in');
  });

  test('sign-ins that succeed do not use up their address: many people behind one address can sign in', async () => {
    const outcomes = [];
    for (let i = 0; i < portalLimits.failuresPerClient + 5; i++) outcomes.push((await signIn(request('ada', right))).outcome);

    expect(new Set(outcomes)).toEqual(new Set(['signed-in']));
  });

  test('two sign-ins with the right password at once (a double click) both succeed', async () => {
    const outcomes = await Promise.all([signIn(request('ada', right)), signIn(request('ada', right))]);

    expect(outcomes.map((outcome) => outcome.outcome)).toEqual(['signed-in', 'signed-in']);
  });
});
