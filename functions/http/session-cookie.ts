/**
 * Session cookies, for the console and the affiliate portal alike: HttpOnly
 * (no script reads them), SameSite=Lax (sent when a person follows a link to
 * the site, not with another site's form posts) and Secure except for a
 * plain-HTTP loopback origin (`cookieSecureFor`). And signing out, the one way
 * both end a session: server-side, its cookie cleared.
 */
import { hashSecret } from '../domain/secrets-random';
import { sessionLimits, type SessionRecord, type SessionStore } from '../domain/sessions';

/** A cookie: its name, the path it is sent to, and how long the browser keeps it. */
export interface CookieSpec {
  name: string;
  path: string;
  maxAgeSeconds: number;
}

// Not cookie's stringifySetCookie: it orders the attributes otherwise (Max-Age before Path, Secure before SameSite),
// and docs/api.md gives this order. The values are random ids, which need no encoding.
function setCookieLine(spec: Pick<CookieSpec, 'name' | 'path'>, value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${spec.name}=${value}; Path=${spec.path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie that gives the browser the cookie. */
export function setCookie(spec: CookieSpec, value: string, secure: boolean): string {
  return setCookieLine(spec, value, spec.maxAgeSeconds, secure);
}

/** The Set-Cookie that tells the browser to drop it: empty, at once, with the path and Secure it was set with. */
export function clearCookie(spec: Pick<CookieSpec, 'name' | 'path'>, secure: boolean): string {
  return setCookieLine(spec, '', 0, secure);
}

/** The console's session cookie (the enterprise portal's /redirect sets it), for the whole site. */
export const SESSION_COOKIE = 'urm_portal_session';

/** Lives as long as the absolute session limit; the server ends it sooner when idle. */
export const consoleSessionCookie: CookieSpec = { name: SESSION_COOKIE, path: '/', maxAgeSeconds: Math.floor(sessionLimits.lifetimeMs / 1000) };

export function sessionCookie(sessionId: string, secure: boolean): string {
  return setCookie(consoleSessionCookie, sessionId, secure);
}

/**
 * Ends the session a cookie names, live or not, and answers the Set-Cookie
 * that clears the cookie with the Secure it was set with: the stored
 * session's, else `held`'s (the session as the request's check found it),
 * else none (a cookie of an unknown session is cleared from any origin).
 */
export async function signOut<S extends SessionRecord>(
  sessions: Pick<SessionStore<S>, 'delete'>,
  sessionId: string,
  cookie: Pick<CookieSpec, 'name' | 'path'>,
  held?: Pick<SessionRecord, 'cookie_secure'>,
): Promise<{ ended: S | undefined; clearCookie: string }> {
  const ended = await sessions.delete(hashSecret(sessionId));
  return { ended, clearCookie: clearCookie(cookie, (ended ?? held)?.cookie_secure ?? false) };
}
