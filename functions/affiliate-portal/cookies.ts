/**
 * The portal's cookies (built by functions/http/session-cookie.ts), scoped to
 * one application's portal (`Path=/affiliates/{app_id}/`): two applications'
 * portals on one origin never share a session.
 */
import { portalLimits } from '../domain/affiliate-portal';
import { sessionLimits } from '../domain/sessions';
import { clearCookie, setCookie, type CookieSpec } from '../http/session-cookie';

/** The session id. */
export const SESSION_COOKIE = 'urm_aff_session';
/** A random id held before sign-in, which the sign-in and reset forms' CSRF tokens are bound to. */
export const PRE_SESSION_COOKIE = 'urm_aff_pre';

export const portalPath = (appId: string) => `/affiliates/${appId}/`;

const lifetimesMs = {
  // As long as the absolute session limit; the server ends it sooner when idle.
  [SESSION_COOKIE]: sessionLimits.lifetimeMs,
  [PRE_SESSION_COOKIE]: portalLimits.preSessionLifetimeMs,
};

/** A cookie of one application's portal. */
export function portalCookie(name: keyof typeof lifetimesMs, appId: string): CookieSpec {
  return { name, path: portalPath(appId), maxAgeSeconds: Math.floor(lifetimesMs[name] / 1000) };
}

export function sessionCookie(sessionId: string, appId: string, secure: boolean): string {
  return setCookie(portalCookie(SESSION_COOKIE, appId), sessionId, secure);
}

export function preSessionCookie(preSessionId: string, appId: string, secure: boolean): string {
  return setCookie(portalCookie(PRE_SESSION_COOKIE, appId), preSessionId, secure);
}

export function clearedCookie(name: keyof typeof lifetimesMs, appId: string, secure: boolean): string {
  return clearCookie(portalCookie(name, appId), secure);
}
