/**
 * The portal's session cookie: HttpOnly (no script reads it), SameSite=Lax
 * (sent when a person follows a link to the portal, not on another site's
 * form posts) and Secure except for a plain-HTTP loopback portal
 * (`cookieSecureFor`).
 */
import { enterpriseLimits } from '../domain/enterprise';

export const SESSION_COOKIE = 'urm_portal_session';

// Not cookie's stringifySetCookie: it orders the attributes otherwise (Max-Age before Path, Secure before SameSite),
// and docs/api.md gives this order. The values are random ids, which need no encoding.
function attributes(secure: boolean, maxAgeSeconds: number): string {
  return `Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function sessionCookie(sessionId: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${sessionId}; ${attributes(secure, Math.floor(enterpriseLimits.sessionLifetimeMs / 1000))}`;
}

/** Tells the browser to drop the cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; ${attributes(secure, 0)}`;
}
