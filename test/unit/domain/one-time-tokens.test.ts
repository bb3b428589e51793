/**
 * The one-time-token rules the console's sign-in links and the portal's reset
 * links share (functions/domain/one-time-tokens.ts), with a clock the test
 * moves: a token is stored by its hash and can be used once, before it expires.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { issuedToken, tokenUse, type OneTimeToken } from '../../../functions/domain/one-time-tokens';
import { hashSecret } from '../../../functions/domain/secrets-random';
import { FakeClock } from '../../support/enterprise';

const LIFETIME = 5 * 60_000;
let clock: FakeClock;
let token: OneTimeToken;

beforeEach(() => {
  clock = new FakeClock(new Date('2026-11-21T10:00:00.000Z'));
  token = { ...issuedToken('the-token', clock.now(), LIFETIME), app_id: 'app_1' };
});

describe('a one-time token', () => {
  test('is stored by the hash of the token, never the token, and expires its lifetime after issue', () => {
    expect(token).toEqual({
      token_hash: hashSecret('the-token'),
      app_id: 'app_1',
      created_at: '2026-11-21T10:00:00.000Z',
      expires_at: '2026-11-21T10:05:00.000Z',
    });
    expect(JSON.stringify(token)).not.toContain('the-token');
  });

  test('can be used until a millisecond before it expires', () => {
    clock.advance(LIFETIME - 1);

    expect(tokenUse(token, clock.now())).toEqual({ outcome: 'consumed', token });
  });

  test('is expired from the moment it expires', () => {
    clock.advance(LIFETIME);

    expect(tokenUse(token, clock.now())).toEqual({ outcome: 'expired' });
  });

  test('is used once used, even before it expires', () => {
    expect(tokenUse({ ...token, used_at: clock.now().toISOString() }, clock.now())).toEqual({ outcome: 'used' });
  });

  test('that no store holds is unknown', () => {
    expect(tokenUse(undefined, clock.now())).toEqual({ outcome: 'unknown' });
  });
});
