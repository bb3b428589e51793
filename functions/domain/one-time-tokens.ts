/**
 * Tokens used once before they expire: the console's sign-in links and the
 * affiliate portal's password-reset links. A token is random (newSecret) and
 * stored only as its hash; it is used by one conditional write, so of two
 * concurrent uses exactly one wins.
 */
import { hashSecret } from './secrets-random';

/** A token as stored; each kind adds whose it is. */
export interface OneTimeToken {
  token_hash: string;
  app_id: string;
  created_at: string;
  /** ISO 8601 UTC (`toISOString`), so stored values compare as strings in a condition. */
  expires_at: string;
  /** Set when the token is used. */
  used_at?: string;
}

/** Why a token cannot be used. */
export type TokenRefusal = 'used' | 'expired' | 'unknown';

export type TokenConsumption<T extends OneTimeToken> = { outcome: 'consumed'; token: T } | { outcome: TokenRefusal };

export interface OneTimeTokenStore<T extends OneTimeToken> {
  put(token: T): Promise<void>;
  /** What using the token now would answer, without using it (a form shown before the use). */
  peek(tokenHash: string, now: Date): Promise<TokenConsumption<T>>;
  /**
   * Marks the token used if it exists, is unused and `expires_at` is after
   * `now`, in one conditional write: of concurrent calls, exactly one consumes.
   */
  consume(tokenHash: string, now: Date): Promise<TokenConsumption<T>>;
}

/** The fields a token is stored with when issued at `now`, good for `lifetimeMs`. */
export function issuedToken(token: string, now: Date, lifetimeMs: number) {
  return { token_hash: hashSecret(token), created_at: now.toISOString(), expires_at: new Date(now.getTime() + lifetimeMs).toISOString() };
}

/** Whether a token as found (or not) can be used at `now`, and if not why: what a store's conditional write decides. */
export function tokenUse<T extends OneTimeToken>(token: T | undefined, now: Date): TokenConsumption<T> {
  if (!token) return { outcome: 'unknown' };
  if (token.used_at) return { outcome: 'used' };
  if (token.expires_at <= now.toISOString()) return { outcome: 'expired' };
  return { outcome: 'consumed', token };
}
