import { describe, expect, test } from '@jest/globals';
import { filledAlongside, lockedUntil, periodOf, portalLimits } from '../../../functions/domain/affiliate-portal';

const at = (iso: string) => new Date(iso);

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
