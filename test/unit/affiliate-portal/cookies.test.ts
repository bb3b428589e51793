import { describe, expect, test } from '@jest/globals';
import { clearedCookie, PRE_SESSION_COOKIE, preSessionCookie, SESSION_COOKIE, sessionCookie } from '../../../functions/affiliate-portal/cookies';
import { portalLimits } from '../../../functions/domain/affiliate-portal';

describe("the affiliate portal's cookies", () => {
  test("are HttpOnly, SameSite=Lax, scoped to the application's portal and Secure unless on a plain-HTTP loopback", () => {
    expect(sessionCookie('abc', 'app_1', true)).toBe('urm_aff_session=abc; Path=/affiliates/app_1/; Max-Age=43200; HttpOnly; SameSite=Lax; Secure');
    expect(sessionCookie('abc', 'app_1', false)).toBe('urm_aff_session=abc; Path=/affiliates/app_1/; Max-Age=43200; HttpOnly; SameSite=Lax');
  });

  test('the one held before sign-in lasts as long as a pre-session', () => {
    expect(preSessionCookie('pre', 'app_1', true)).toBe(
      `${PRE_SESSION_COOKIE}=pre; Path=/affiliates/app_1/; Max-Age=${portalLimits.preSessionLifetimeMs / 1000}; HttpOnly; SameSite=Lax; Secure`,
    );
  });

  test('a cleared one is empty and expires at once, on the same path', () => {
    expect(clearedCookie(SESSION_COOKIE, 'app_1', false)).toBe('urm_aff_session=; Path=/affiliates/app_1/; Max-Age=0; HttpOnly; SameSite=Lax');
  });
});
