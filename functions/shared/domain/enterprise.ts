/**
 * Enterprise users, their one-time sign-in tokens and their portal sessions
 * (docs/api.md, "Enterprise users"): the records, the ports the cores use, and
 * the rules that need no I/O.
 */
import { createHash, randomBytes } from 'node:crypto';

export const enterpriseLimits = {
  usersPerSignUp: 100,
  emailLength: 254,
  nameLength: 100,
  userIdLength: 64,
  /** A sign-in token is good for this long, once. */
  tokenLifetimeMs: 5 * 60 * 1000,
  /** A portal session lasts this long from sign-in; there is no sliding renewal. */
  sessionLifetimeMs: 8 * 60 * 60 * 1000,
} as const;

export interface EnterpriseUser {
  app_id: string;
  user_id: string;
  /** As first signed up; uniqueness is decided on `emailKey(email)`. */
  email: string;
  first_name: string;
  last_name: string;
  created_at: string;
}

export interface EnterpriseUserStore {
  get(appId: string, userId: string): Promise<EnterpriseUser | undefined>;
  /** The application's user with this email (compared by `emailKey`), read consistently. */
  findByEmail(appId: string, email: string): Promise<EnterpriseUser | undefined>;
  /** Creates the user and claims its email atomically; false, writing nothing, when the email is already claimed. */
  create(user: EnterpriseUser): Promise<boolean>;
}

/** A sign-in token as stored: only its hash, never the token. */
export interface StoredSignInToken {
  token_hash: string;
  app_id: string;
  user_id: string;
  created_at: string;
  /** ISO 8601 UTC (`toISOString`), so stored values compare as strings in a condition. */
  expires_at: string;
  /** Set when the token is used. */
  used_at?: string;
}

export type TokenConsumption =
  | { outcome: 'consumed'; token: StoredSignInToken }
  | { outcome: 'used' | 'expired' | 'unknown' };

export interface SignInTokenStore {
  put(token: StoredSignInToken): Promise<void>;
  /**
   * Marks the token used if it exists, is unused and `expires_at` is after
   * `now`, in one conditional write: of concurrent calls, exactly one consumes.
   */
  consume(tokenHash: string, now: Date): Promise<TokenConsumption>;
}

export interface PortalSession {
  session_hash: string;
  app_id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  /** Whether the cookie was set Secure, so that clearing it repeats the same attributes. */
  cookie_secure: boolean;
}

export interface SessionStore {
  put(session: PortalSession): Promise<void>;
  get(sessionHash: string): Promise<PortalSession | undefined>;
  /** Removes the session; returns it when there was one. */
  delete(sessionHash: string): Promise<PortalSession | undefined>;
}

/** The moment, as the cores see it: injected so expiry is tested without waiting. */
export type Clock = () => Date;

/** 256 random bits, URL-safe: sign-in tokens and session ids. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What a secret is stored and looked up as. Being random, it needs no slow hash. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The shape `newSecret` produces; anything else cannot be a token or session id. */
export const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newUserId(): string {
  return `usr_${randomBytes(12).toString('hex')}`;
}

/** Emails are unique per application compared case-insensitively, after trimming. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** DynamoDB's TTL attribute: epoch seconds, rounded up so an item is never removed before it expires. */
export function ttlOf(expiresAt: Date): number {
  return Math.ceil(expiresAt.getTime() / 1000);
}

/**
 * The portal's cookies are Secure unless the portal is served over plain HTTP
 * from the loopback host, where browsers would otherwise drop them (local
 * development). Decided from the configured origin, never from the request.
 */
export function cookieSecureFor(portalOrigin: string): boolean {
  const url = new URL(portalOrigin);
  if (url.protocol === 'https:') return true;
  return !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}
