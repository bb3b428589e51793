/**
 * Enterprise users, their one-time sign-in tokens and their portal sessions
 * (docs/api.md, "Enterprise users"): the records, the ports the cores use, and
 * the rules that need no I/O.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const enterpriseLimits = {
  usersPerSignUp: 100,
  emailLength: 254,
  nameLength: 100,
  userIdLength: 64,
  /** A sign-in token is good for this long, once. */
  tokenLifetimeMs: 5 * 60 * 1000,
  /** A portal session is over this long after sign-in, however busy (absolute expiry). */
  sessionLifetimeMs: 12 * 60 * 60 * 1000,
  /** A portal session unused this long is over (idle expiry). */
  sessionIdleMs: 30 * 60 * 1000,
  /** `last_seen` is written at most this often: a request need not cost a write. */
  lastSeenResolutionMs: 60 * 1000,
} as const;

/**
 * What an enterprise user may do in an application (docs/api.md, "Back office
 * API"): `admin` everything, settings and users; `marketer` players,
 * messaging, affiliates; `viewer` read only.
 */
export const roles = ['admin', 'marketer', 'viewer'] as const;
export type Role = (typeof roles)[number];

/** A user signed up before roles existed reads as this. */
export const defaultRole: Role = 'viewer';

/**
 * The roles sign_up may name: a server key never makes an admin (only the
 * application's first user, once, is one by default). Admins are made by an
 * admin in the console or by the operator's command line.
 */
export const signUpRoles = ['marketer', 'viewer'] as const satisfies readonly Role[];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (roles as readonly string[]).includes(value);
}

export interface EnterpriseUser {
  app_id: string;
  user_id: string;
  /** As first signed up; uniqueness is decided on `emailKey(email)`. */
  email: string;
  first_name: string;
  last_name: string;
  created_at: string;
  role: Role;
}

/** A user to sign up: without a role, the application's first user is `admin` and any later one `viewer`. */
export type NewEnterpriseUser = Omit<EnterpriseUser, 'role'> & { role?: Role };

/** One page of an application's users, oldest first; `cursor` asks for the next page. */
export interface UserPage {
  users: EnterpriseUser[];
  cursor?: string;
}

/** Why a role change was refused. */
export type RoleChange =
  | { outcome: 'changed'; user: EnterpriseUser }
  | { outcome: 'not-found' }
  /** The user's role was no longer `from`: another change came first. */
  | { outcome: 'stale' }
  /** It would leave the application without an admin. */
  | { outcome: 'last-admin' };

export interface EnterpriseUserStore {
  get(appId: string, userId: string): Promise<EnterpriseUser | undefined>;
  /** The application's user with this email (compared by `emailKey`), read consistently. */
  findByEmail(appId: string, email: string): Promise<EnterpriseUser | undefined>;
  /**
   * Creates the user and claims its email atomically, deciding a missing role
   * atomically too (the application's first user is `admin`); undefined,
   * writing nothing, when the email is already claimed.
   */
  create(user: NewEnterpriseUser): Promise<EnterpriseUser | undefined>;
  /** The application's users, oldest first. */
  list(appId: string, options: { limit: number; cursor?: string }): Promise<UserPage>;
  /** Sets the user's role if it still is `from`, never leaving the application without an admin (one transaction). */
  changeRole(appId: string, userId: string, from: Role, to: Role): Promise<RoleChange>;
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

export type TokenConsumption = { outcome: 'consumed'; token: StoredSignInToken } | { outcome: 'used' | 'expired' | 'unknown' };

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
  /** The absolute end: `created_at` + sessionLifetimeMs. */
  expires_at: string;
  /** When the session was last used (moved at most once a minute); absent on sessions started before idle expiry existed. */
  last_seen?: string;
  /** Whether the cookie was set Secure, so that clearing it repeats the same attributes. */
  cookie_secure: boolean;
}

export interface SessionStore {
  put(session: PortalSession): Promise<void>;
  get(sessionHash: string): Promise<PortalSession | undefined>;
  /** Moves `last_seen` (and the TTL with it) forward; never brings back a session deleted meanwhile. */
  touch(sessionHash: string, at: Date): Promise<void>;
  /** Removes the session; returns it when there was one. */
  delete(sessionHash: string): Promise<PortalSession | undefined>;
}

/** Whether a session may be used at `now`: not past its absolute end, and used within the idle time. */
export function sessionIsLive(session: Pick<PortalSession, 'created_at' | 'expires_at' | 'last_seen'>, now: Date): boolean {
  const at = now.getTime();
  if (at >= Date.parse(session.expires_at)) return false;
  return at < Date.parse(session.last_seen ?? session.created_at) + enterpriseLimits.sessionIdleMs;
}

/** When the session stops being usable unless used again: what the store's TTL is set from. */
export function sessionEndsAt(session: Pick<PortalSession, 'created_at' | 'expires_at' | 'last_seen'>): Date {
  return new Date(Math.min(Date.parse(session.expires_at), Date.parse(session.last_seen ?? session.created_at) + enterpriseLimits.sessionIdleMs));
}

/** Whether a request should move `last_seen` (at most once a minute). */
export function shouldTouchSession(session: Pick<PortalSession, 'created_at' | 'last_seen'>, now: Date): boolean {
  return now.getTime() - Date.parse(session.last_seen ?? session.created_at) >= enterpriseLimits.lastSeenResolutionMs;
}

/**
 * The console's CSRF token: derived one-way from the session id the HttpOnly
 * cookie holds, with its own label. Another site can read neither the cookie
 * nor `GET /console/api/session`, so it cannot produce the token.
 */
export function consoleCsrfToken(sessionId: string): string {
  return createHash('sha256').update(`urm-console-csrf:${sessionId}`, 'utf8').digest('base64url');
}

/** Whether a request's `X-CSRF-Token` is the session's, compared in constant time. */
export function consoleCsrfTokenMatches(sessionId: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const expected = Buffer.from(consoleCsrfToken(sessionId), 'utf8');
  const actual = Buffer.from(given, 'utf8');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
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
