/**
 * What the portal checks before a route's work, as middleware the router
 * puts in front of each route by its declaration (routes.ts): the
 * application the path names, a session cookie, the form's CSRF token, a
 * signed-in affiliate. Each either answers (the 404 page, a redirect to
 * sign-in, the 403 page) or leaves what it learnt on the Lambda context, as
 * the key check leaves its principal, for the route's work to read as a `Visit`.
 */
import type middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { h } from 'preact';
import type { AffiliateSession } from '../domain/affiliate-portal';
import type { AffiliateRecord } from '../domain/affiliates';
import type { App, AppStore } from '../domain/apps';
import { claimedApp, verifyUnsubscribeToken, type UnsubscribeClaims } from '../domain/unsubscribe-token';
import { newSecret, SECRET_PATTERN } from '../domain/secrets-random';
import { cookieSecureFor, portalCsrf } from '../domain/sessions';
import { cookieOf } from '../http/html';
import { requestOrigin } from '../http/request-origin';
import type { ApiEvent, ApiResult } from '../http/types';
import { logger } from '../runtime/logger';
import { PRE_SESSION_COOKIE, preSessionCookie, SESSION_COOKIE } from './cookies';
import { ForbiddenPage, NotFoundPage } from './pages/access';
import { InvalidLinkPage } from './pages/unsubscribe';
import { page, seeOther } from './render';
import { appIdOf, formOf } from './request';
import type { PortalRoute, PortalRouteDefinition } from './routes';
import type { CurrentAffiliate } from './session';

/** A request to an application's portal, as the checks leave it for the route's work. */
export interface Visit {
  event: ApiEvent;
  app: App;
  appId: string;
  /**
   * The application's portal origin, the only base of a link the portal mails
   * or shows; none when the operator has not set one (never the request's
   * `Host` or `X-Forwarded-Proto`, which the sender chooses).
   */
  portalOrigin: string | undefined;
  /** Whether cookies are Secure: all but a plain-HTTP loopback portal's. */
  cookieSecure: boolean;
  /** The posted form's fields (none for a GET); its `csrf` checked where the route declares it. */
  form: Record<string, string>;
}

/** A visit with a session cookie of the right shape, live or not. */
export interface SessionVisit extends Visit {
  sessionId: string;
}

/** A visit of a signed-in affiliate: a live session of an approved affiliate of this application. */
export interface SignedInVisit extends SessionVisit {
  session: AffiliateSession;
  affiliate: AffiliateRecord;
}

/** A visit through a player's unsubscribe link: its application, the player it names, and the key it was verified with. */
export interface UnsubscribeVisit {
  event: ApiEvent;
  app: App;
  token: string;
  claims: UnsubscribeClaims;
  key: string;
  form: Record<string, string>;
}

type VisitFor<Access extends PortalRouteDefinition['access']> = Access extends 'signed-in'
  ? SignedInVisit
  : Access extends 'session-holder'
    ? SessionVisit
    : Access extends 'unsubscribe-token'
      ? UnsubscribeVisit
      : Visit;

/** Each route's work, given the visit its checks let through. */
export type PortalWork = { [R in PortalRoute as R['id']]: (visit: VisitFor<R['access']>) => Promise<ApiResult> };

/** What the checks leave on the context. */
export interface PortalContext extends Context {
  visit?: Visit;
  sessionId?: string;
  signedIn?: Extract<CurrentAffiliate, { signedIn: true }>;
  unsubscribe?: UnsubscribeVisit;
}

type Check = middy.MiddlewareObj<ApiEvent, ApiResult, Error, PortalContext>;

/** The application of the path: an unknown one (or no application id at all) is the 404 page. */
export function application(apps: Pick<AppStore, 'get'>): Check {
  return {
    before: async ({ event, context }) => {
      const appId = appIdOf(event);
      const app = appId ? await apps.get(appId) : undefined;
      if (!appId || !app) return page(404, h(NotFoundPage, { missing: 'portal' }));
      // Without a portal origin only the cookies' Secure attribute follows the request: it decides nothing but the sender's own cookie.
      const cookieSecure = cookieSecureFor(app.portal_origin ?? requestOrigin(event));
      context.visit = { event, app, appId, portalOrigin: app.portal_origin, cookieSecure, form: formOf(event) };
    },
  };
}

/** Sign-out's check: a session cookie of the right shape; without one there is nothing to end, so on to sign-in. */
export const sessionHolder: Check = {
  before: async ({ event, context }) => {
    const sessionId = cookieOf(event, SESSION_COOKIE);
    if (!sessionId || !SECRET_PATTERN.test(sessionId)) return seeOther('login');
    context.sessionId = sessionId;
  },
};

/** The pre-session id the browser holds, or a new one with the cookie that gives it (a page's forms are bound to it before sign-in). */
export function preSession(visit: Pick<Visit, 'event' | 'appId' | 'cookieSecure'>): { id: string; cookies: string[] } {
  const held = cookieOf(visit.event, PRE_SESSION_COOKIE);
  if (held && SECRET_PATTERN.test(held)) return { id: held, cookies: [] };
  const id = newSecret();
  return { id, cookies: [preSessionCookie(id, visit.appId, visit.cookieSecure)] };
}

/** The form's CSRF token must be the one of the cookie `kind` names; else the 403 page (before sign-in, with a pre-session cookie to try again with). */
export function csrf(kind: NonNullable<PortalRouteDefinition['csrf']>): Check {
  return {
    before: async ({ event, context }) => {
      const visit = visitOf(context);
      if (portalCsrf.matches(cookieOf(event, kind === 'session' ? SESSION_COOKIE : PRE_SESSION_COOKIE), visit.form.csrf)) return;
      logger.info('Affiliate portal form refused: CSRF token', { app_id: visit.appId });
      return page(403, h(ForbiddenPage, { appName: visit.app.name }), { cookies: kind === 'pre-session' ? preSession(visit).cookies : [] });
    },
  };
}

/** A live session of an approved affiliate of this application; else on to sign-in, saying the session ended if there was one. */
export function signedIn(current: (appId: string, sessionId: string | undefined) => Promise<CurrentAffiliate>): Check {
  return {
    before: async ({ event, context }) => {
      const sessionId = cookieOf(event, SESSION_COOKIE);
      const found = await current(visitOf(context).appId, sessionId);
      if (!found.signedIn) return seeOther(sessionId !== undefined ? 'login?notice=expired' : 'login');
      context.signedIn = found;
    },
  };
}

/**
 * The unsubscribe link's token, verified with the key of the application it
 * claims, and that application. Every kind of bad token (malformed, forged,
 * altered, another application's, an application without a key) is the same
 * 404 page, and nothing else is read.
 */
export function unsubscribeToken(apps: Pick<AppStore, 'get'>, keyOf: (appId: string) => Promise<string | undefined>): Check {
  return {
    before: async ({ event, context }) => {
      const token = event.pathParameters?.token ?? '';
      const appId = claimedApp(token);
      const key = appId ? await keyOf(appId) : undefined;
      const claims = key ? verifyUnsubscribeToken(key, token) : undefined;
      const app = claims && claims.appId === appId ? await apps.get(appId) : undefined;
      if (!claims || !key || !app) return page(404, h(InvalidLinkPage, {}));
      context.unsubscribe = { event, app, token, claims, key, form: formOf(event) };
    },
  };
}

export interface CheckPorts {
  apps: Pick<AppStore, 'get'>;
  current: Parameters<typeof signedIn>[0];
  unsubscribeKey: (appId: string) => Promise<string | undefined>;
}

/** The checks a route's declaration asks for, in order: application, session cookie, CSRF (before any session is read), signed-in. */
export function checksOf(route: PortalRouteDefinition, ports: CheckPorts): Check[] {
  if (route.access === 'unsubscribe-token') return [unsubscribeToken(ports.apps, ports.unsubscribeKey)];
  return [
    application(ports.apps),
    ...(route.access === 'session-holder' ? [sessionHolder] : []),
    ...(route.csrf ? [csrf(route.csrf)] : []),
    ...(route.access === 'signed-in' ? [signedIn(ports.current)] : []),
  ];
}

// A route's chain runs its checks before its work, so a missing part is a chain built wrong, never a request's doing.
function missing(what: string): never {
  throw new Error(`the portal's checks left no ${what}: a route's chain is built without them`);
}

export function visitOf(context: PortalContext): Visit {
  return context.visit ?? missing('visit');
}

export function unsubscribeVisitOf(context: PortalContext): UnsubscribeVisit {
  return context.unsubscribe ?? missing('unsubscribe link');
}

export function sessionVisitOf(context: PortalContext): SessionVisit {
  return { ...visitOf(context), sessionId: context.sessionId ?? missing('session cookie') };
}

export function signedInVisitOf(context: PortalContext): SignedInVisit {
  const found = context.signedIn ?? missing('signed-in affiliate');
  return { ...visitOf(context), sessionId: found.sessionId, session: found.session, affiliate: found.affiliate };
}
