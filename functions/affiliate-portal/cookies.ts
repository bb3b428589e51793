/**
 * The portal's cookies, scoped to one application's portal
 * (`Path=/affiliates/{app_id}/`): two applications' portals on one origin
 * never share a session. HttpOnly (no script reads them), SameSite=Lax (not
 * sent with another site's form posts) and Secure except for a plain-HTTP
 * loopback portal (cookieSecureFor).
 */
import { portalLimits } from '../domain/affiliate-portal';

/** The session id. */
export const SESSION_COOKIE = 'urm_aff_session';
/** A random id held before sign-in, which the sign-in and reset forms' CSRF tokens are bound to. */
export const PRE_SESSION_COOKIE = 'urm_aff_pre';

export const portalPath = (appId: string) => `/affiliates/${appId}/`;

// By hand, in the order of the console's session cookie (functions/http/session-cookie.ts says why not stringifySetCookie).
function cookie(name: string, value: string, appId: string, secure: boolean, maxAgeSeconds: number): string {
  return `${name}=${value}; Path=${portalPath(appId)}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Lives as long as the absolute session limit; the server ends it sooner when idle. */
export function sessionCookie(sessionId: string, appId: string, secure: boolean): string {
  return cookie(SESSION_COOKIE, sessionId, appId, secure, Math.floor(portalLimits.sessionAbsoluteMs / 1000));
}

export function preSessionCookie(preSessionId: string, appId: string, secure: boolean): string {
  return cookie(PRE_SESSION_COOKIE, preSessionId, appId, secure, Math.floor(portalLimits.preSessionLifetimeMs / 1000));
}

export function clearedCookie(name: string, appId: string, secure: boolean): string {
  return cookie(name, '', appId, secure, 0);
}
