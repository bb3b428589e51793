/**
 * The middleware stack of a portal route (logging context → error page →
 * header normalising) and what every route decides the same way: the
 * application (unknown: a 404 page), whether cookies are Secure, and the
 * pre-session cookie the sign-in and reset forms' CSRF tokens are bound to.
 */
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { h } from 'preact';
import type { App, AppStore } from '../domain/apps';
import { cookieSecureFor, newSecret, SECRET_PATTERN } from '../domain/enterprise';
import { cookieOf } from '../http/html';
import { requestOrigin } from '../http/request-origin';
import type { ApiEvent, ApiResult } from '../http/types';
import { logger } from '../runtime/logger';
import { PRE_SESSION_COOKIE, preSessionCookie } from './cookies';
import { ErrorPage, NotFoundPage } from './pages/access';
import { page } from './render';
import { appIdOf } from './request';

export function portalRoute() {
  return middy<ApiEvent, ApiResult>()
    .use(injectLambdaContext(logger))
    .use({
      onError: async (request) => {
        logger.error('Request failed', { error: request.error as Error });
        request.response = page(500, h(ErrorPage, {}));
      },
    })
    .use(httpHeaderNormalizer());
}

export type PortalApp = { found: true; app: App; appId: string; origin: string; cookieSecure: boolean } | { found: false; response: ApiResult };

/**
 * The application whose portal the path names. Its portal origin (else the
 * origin the request came to: the stack's own) is where links in mail point
 * and decides Secure cookies, which only a plain-HTTP loopback portal goes without.
 */
export async function portalApp(apps: Pick<AppStore, 'get'>, event: ApiEvent): Promise<PortalApp> {
  const appId = appIdOf(event);
  const app = appId ? await apps.get(appId) : undefined;
  if (!appId || !app) return { found: false, response: page(404, h(NotFoundPage, {})) };
  const origin = app.portal_origin ?? requestOrigin(event);
  return { found: true, app, appId, origin, cookieSecure: cookieSecureFor(origin) };
}

/** The pre-session id the browser holds, or a new one with the cookie that gives it. */
export function preSession(event: ApiEvent, appId: string, secure: boolean): { id: string; setCookie?: string } {
  const held = cookieOf(event, PRE_SESSION_COOKIE);
  if (held && SECRET_PATTERN.test(held)) return { id: held };
  const id = newSecret();
  return { id, setCookie: preSessionCookie(id, appId, secure) };
}
