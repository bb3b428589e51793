/**
 * Signed-in sessions, one set of rules for the console (an enterprise user's
 * session, docs/api.md "Enterprise users") and the affiliate portal (an
 * affiliate's): the record as stored, when it is over, when `last_seen` moves,
 * the CSRF tokens bound to it, the store's port, and the lookup of the session
 * a cookie names. The two areas differ only in who the session belongs to and
 * in whether the absolute end is stored (the console) or derived (the portal).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { hashSecret, SECRET_PATTERN } from './secrets-random';

export const sessionLimits = {
  /** A session unused this long is over (idle expiry). */
  idleMs: 30 * 60 * 1000,
  /** A session is over this long after sign-in, however busy (absolute expiry). */
  lifetimeMs: 12 * 60 * 60 * 1000,
  /** `last_seen` is written at most this often: a request need not cost a write. */
  lastSeenResolutionMs: 60 * 1000,
} as const;

/** A session as stored: its id only as its hash. */
export interface SessionRecord {
  session_hash: string;
  app_id: string;
  created_at: string;
  /** When the session was last used (moved at most once a minute); absent on console sessions started before idle expiry existed. */
  last_seen?: string;
  /** The absolute end where the area stores it (the console's: `created_at` + lifetime); without it, derived from `created_at`. */
  expires_at?: string;
  /** Whether the cookie was set Secure, so that clearing it repeats the same attributes. */
  cookie_secure: boolean;
}

type Timing = Pick<SessionRecord, 'created_at' | 'last_seen' | 'expires_at'>;

/** The fields a session starts with: stored by the hash of its id, last seen as it starts. */
export function startedSession(sessionId: string, appId: string, now: Date, cookieSecure: boolean) {
  const at = now.toISOString();
  return { session_hash: hashSecret(sessionId), app_id: appId, created_at: at, last_seen: at, cookie_secure: cookieSecure };
}

function absoluteEnd(session: Timing): number {
  return session.expires_at !== undefined ? Date.parse(session.expires_at) : Date.parse(session.created_at) + sessionLimits.lifetimeMs;
}

function lastUse(session: Pick<SessionRecord, 'created_at' | 'last_seen'>): number {
  return Date.parse(session.last_seen ?? session.created_at);
}

export type SessionState = 'live' | 'idle' | 'expired';

/** Whether a session may still be used at `now`: expired at its absolute end, idle 30 minutes after its last use. */
export function sessionState(session: Timing, now: Date): SessionState {
  const at = now.getTime();
  if (at >= absoluteEnd(session)) return 'expired';
  if (at >= lastUse(session) + sessionLimits.idleMs) return 'idle';
  return 'live';
}

/** When the session stops being usable unless used again: what the store's TTL is set from. */
export function sessionEndsAt(session: Timing): Date {
  return new Date(Math.min(absoluteEnd(session), lastUse(session) + sessionLimits.idleMs));
}

/** Whether a request should move `last_seen` (at most once a minute). */
export function shouldTouch(session: Pick<SessionRecord, 'created_at' | 'last_seen'>, now: Date): boolean {
  return now.getTime() - lastUse(session) >= sessionLimits.lastSeenResolutionMs;
}

export interface SessionStore<S extends SessionRecord> {
  put(session: S): Promise<void>;
  /** Read consistently: the request right after the sign-in must find the session just written. */
  get(sessionHash: string): Promise<S | undefined>;
  /** Moves `last_seen` (and the TTL with it) forward; never brings back a session deleted meanwhile, nor moves it back. */
  touch(sessionHash: string, at: Date): Promise<void>;
  /** Removes the session; returns it when there was one. */
  delete(sessionHash: string): Promise<S | undefined>;
}

/** A live session, the id its cookie holds, and who it belongs to. */
export interface CurrentSession<S extends SessionRecord, P> {
  sessionId: string;
  session: S;
  principal: P;
}

export interface SessionLookupPorts<S extends SessionRecord> {
  sessions: Pick<SessionStore<S>, 'get' | 'touch'>;
  now: () => Date;
}

/**
 * The session a cookie's id names, if it is live, and its principal (the
 * area's: the user, the approved affiliate), moving `last_seen` at most once a
 * minute. Undefined for an id not of a secret's shape (no store asked), an
 * unknown one, one of another application than `appId` (given where an area
 * serves one application per path), an idle or expired one, or one whose
 * principal `principalOf` no longer finds. The principal is read on every
 * call: a role change or a suspension takes effect on the next request.
 */
export function currentSession<S extends SessionRecord, P>(ports: SessionLookupPorts<S>, principalOf: (session: S) => Promise<P | undefined>) {
  return async (sessionId: string | undefined, appId?: string): Promise<CurrentSession<S, P> | undefined> => {
    if (!sessionId || !SECRET_PATTERN.test(sessionId)) return undefined;
    const now = ports.now();
    const sessionHash = hashSecret(sessionId);
    const session = await ports.sessions.get(sessionHash);
    if (!session || (appId !== undefined && session.app_id !== appId)) return undefined;
    // DynamoDB's TTL sweeps late; the expiry (idle and absolute) is enforced here.
    if (sessionState(session, now) !== 'live') return undefined;
    const principal = await principalOf(session);
    if (principal === undefined) return undefined;
    if (shouldTouch(session, now)) await ports.sessions.touch(sessionHash, now);
    return { sessionId, session, principal };
  };
}

/**
 * CSRF tokens derived one-way from the secret an HttpOnly cookie holds (a
 * session id, or the portal's pre-session id), under the area's label.
 * Another site can read neither the cookie nor the page or answer that carries
 * the token, so it cannot produce one; the token does not reveal the cookie.
 */
function csrfTokens(label: string) {
  const tokenFor = (cookieSecret: string): string => createHash('sha256').update(`${label}:${cookieSecret}`, 'utf8').digest('base64url');
  return {
    tokenFor,
    /** Whether `given` is the token bound to the cookie, compared in constant time. */
    matches(cookieSecret: string | undefined, given: unknown): boolean {
      if (!cookieSecret || typeof given !== 'string') return false;
      const expected = Buffer.from(tokenFor(cookieSecret), 'utf8');
      const actual = Buffer.from(given, 'utf8');
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}

// The labels are part of every token issued: changing one refuses the forms and console tabs open at the time.
/** The console's `X-CSRF-Token` (GET /console/api/session answers it). */
export const consoleCsrf = csrfTokens('urm-console-csrf');
/** The affiliate portal's form field `csrf`. */
export const portalCsrf = csrfTokens('urm-affiliate-portal-csrf');

/**
 * Cookies are Secure unless the origin is plain HTTP on the loopback host,
 * where browsers would otherwise drop them (local development). Decided from
 * the configured origin, never from the request.
 */
export function cookieSecureFor(portalOrigin: string): boolean {
  const url = new URL(portalOrigin);
  if (url.protocol === 'https:') return true;
  return !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/** DynamoDB's TTL attribute of whatever expires (sessions, tokens, attempt windows): epoch seconds, rounded up so an item is never removed before it expires. */
export function ttlOf(expiresAt: Date): number {
  return Math.ceil(expiresAt.getTime() / 1000);
}
