import { describe, expect, test } from '@jest/globals';
import { csrfTokenFor, csrfTokenMatches, filledAlongside, lockedUntil, periodOf, portalLimits, sessionState } from '../../../functions/domain/affiliate-portal';

const at = (iso: string) => new Date(iso);
const minutes = (n: number) => n * 60_000;

describe('affiliate portal sessions', () => {
  const signedInAt = '2026-11-23T08:00:00.000Z';

  test('a session used within the last 30 minutes is live', () => {
    expect(sessionState({ created_at: signedInAt, last_seen: '2026-11-23T09:00:00.000Z' }, at('2026-11-23T09:29:59.999Z'))).toBe('live');
  });

  test('a session unused for 30 minutes is over (idle)', () => {
    expect(sessionState({ created_at: signedInAt, last_seen: '2026-11-23T09:00:00.000Z' }, at('2026-11-23T09:30:00.000Z'))).toBe('idle');
  });

  test('a session is over 12 hours after sign-in however recently it was used (absolute)', () => {
    const lastSeen = new Date(Date.parse(signedInAt) + portalLimits.sessionAbsoluteMs - minutes(1)).toISOString();
    expect(sessionState({ created_at: signedInAt, last_seen: lastSeen }, new Date(Date.parse(signedInAt) + portalLimits.sessionAbsoluteMs))).toBe('expired');
  });
});

describe('CSRF tokens', () => {
  test('the token derived from the cookie secret matches it', () => {
    expect(csrfTokenMatches('secret-a', csrfTokenFor('secret-a'))).toBe(true);
  });

  test("another cookie's token, a missing token and a missing cookie do not match", () => {
    expect(csrfTokenMatches('secret-a', csrfTokenFor('secret-b'))).toBe(false);
    expect(csrfTokenMatches('secret-a', undefined)).toBe(false);
    expect(csrfTokenMatches('secret-a', '')).toBe(false);
    expect(csrfTokenMatches(undefined, csrfTokenFor('secret-a'))).toBe(false);
  });

  test('the token does not contain the cookie secret', () => {
    expect(csrfTokenFor('secret-a')).not.toContain('secret-a');
  });
});

describe('lockout', () => {
  const ends = '2026-11-23T09:15:00.000Z';
  const window = (attempts: number, failures = attempts, ends_at = ends) => ({ attempts, failures, ends_at });

  test('four attempts of an account lock nothing; the fifth locks it until its window ends', () => {
    expect(lockedUntil(window(4), undefined)).toBe(undefined);
    expect(lockedUntil(window(5), undefined)).toEqual(at(ends));
  });

  test('twenty attempts from one client lock it, whatever account', () => {
    expect(lockedUntil(undefined, window(19))).toBe(undefined);
    expect(lockedUntil(window(1, 1, '2026-11-23T09:01:00.000Z'), window(20))).toEqual(at(ends));
  });

  test('attempts still being checked count as much as failures', () => {
    expect(lockedUntil(window(5, 0), undefined)).toEqual(at(ends));
  });
});

describe('a right password in a window that is full when it has been checked', () => {
  const limit = portalLimits.failuresPerAccount;
  const window = (attempts: number, failures: number, ends_at = '2026-11-23T09:15:00.000Z') => ({ attempts, failures, ends_at });

  test('is let in after attempts that had all failed before it began, as a person who mistyped four times', () => {
    expect(filledAlongside(window(5, 4), window(5, 4), limit)).toBe(false);
  });

  test('is refused when attempts admitted after it filled the window', () => {
    expect(filledAlongside(window(1, 0), window(5, 0), limit)).toBe(true);
  });

  test('is refused when it filled the window while earlier attempts were still being checked', () => {
    expect(filledAlongside(window(5, 0), window(5, 4), limit)).toBe(true);
  });

  test('is let in when the window is not full, or is another window than the one it was counted in', () => {
    expect(filledAlongside(window(1, 0), window(4, 0), limit)).toBe(false);
    expect(filledAlongside(window(1, 0), window(5, 0, '2026-11-23T09:30:00.000Z'), limit)).toBe(false);
    expect(filledAlongside(window(1, 0), undefined, limit)).toBe(false);
  });
});

describe('report periods', () => {
  test('nothing asked: this month so far (UTC)', () => {
    expect(periodOf({}, at('2026-11-23T10:00:00Z'))).toEqual({ period: { from: '2026-11-01', to: '2026-11-23' }, adjusted: false });
  });

  test('reversed bounds are swapped, impossible dates fall back to this month', () => {
    expect(periodOf({ from: '2026-11-10', to: '2026-11-02' }, at('2026-11-23T10:00:00Z')).period).toEqual({ from: '2026-11-02', to: '2026-11-10' });
    expect(periodOf({ from: '2026-02-30', to: '2026-03-01' }, at('2026-11-23T10:00:00Z'))).toEqual({
      period: { from: '2026-11-01', to: '2026-11-23' },
      adjusted: true,
    });
  });
});
