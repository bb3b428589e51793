/**
 * CORS for the operations a browser key may call (docs/api.md, "CORS"):
 * only from the origins configured for the application, only for
 * browser keys. Origins are per application, so the function decides, not API
 * Gateway: the SDK names its application in the query string (`?app_id=`),
 * which a preflight carries too, while the key header it never does.
 *
 * - A preflight (OPTIONS) from an origin of the named application is answered
 *   204 with the CORS headers; any other is a 403 without them.
 * - Answers to an allowed origin carry `Access-Control-Allow-Origin`, unless
 *   the key turned out to be a server or comms key: those are not for pages.
 * - A browser key sent from an origin that is not one of its application's is
 *   refused (403): the key is public, the origin list is what confines it.
 *   So is a browser key's POST without an Origin: browsers send one with
 *   every POST, so a POST without it is a tool, not the SDK. Only the GET of
 *   the push configuration (public data, and same-origin GETs carry no
 *   Origin) passes without one. A tool can forge an Origin: what keeps it off
 *   known profiles is the identity proof (../domain/identity.ts).
 */
import type middy from '@middy/core';
import type { AppStore } from '../domain/apps';
import { Forbidden } from '../domain/errors';
import { LookupCache, lookupCacheDefaults, type LookupCacheOptions } from './lookup-cache';
import { json } from './response';
import type { ApiEvent, ApiResult, AuthedContext } from './types';

/** Port: whether an application accepts browser calls from an origin. */
export interface OriginPolicy {
  allows(appId: string, origin: string): Promise<boolean>;
}

/**
 * Site origins from the applications table, kept 30 seconds per container,
 * like keys, and like keys with unknown applications kept apart (./lookup-cache.ts):
 * a preflight comes before any key, so made-up application ids must not push out real ones.
 */
export class AppOrigins implements OriginPolicy {
  private readonly cache: LookupCache<readonly string[]>;

  constructor(
    private readonly apps: Pick<AppStore, 'get'>,
    options: LookupCacheOptions = lookupCacheDefaults,
  ) {
    this.cache = new LookupCache(options);
  }

  async allows(appId: string, origin: string): Promise<boolean> {
    const origins = await this.cache.get(appId, async (id) => {
      const app = await this.apps.get(id);
      return app && (app.site_origins ?? []);
    });
    return origins?.includes(origin) ?? false;
  }
}

export const corsAllowedHeaders = 'Content-Type, Accept, X-Api-Key';
export const corsMaxAgeSeconds = 600;
const MAX_APP_ID = 64;
const MAX_ORIGIN = 2048;

/** A header before @middy/http-header-normalizer has run: names in any case. */
function headerOf(event: ApiEvent, name: string): string | undefined {
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === name && value !== undefined) return value;
  }
  return undefined;
}

function withHeaders(response: ApiResult | null | undefined, headers: Record<string, string>): void {
  if (response) response.headers = { ...response.headers, ...headers };
}

/**
 * The CORS middlewares of an operation whose method is `method`: `answer`
 * goes before the error mapping (its onError then runs after it, so errors
 * carry the headers too), `originCheck` after the key check.
 */
export function browserCors(policy: OriginPolicy, method: 'GET' | 'POST') {
  const allowedOrigin = new WeakMap<object, string>();

  const answer: middy.MiddlewareObj<ApiEvent, ApiResult> = {
    before: async (request) => {
      const origin = headerOf(request.event, 'origin');
      const appId = request.event.queryStringParameters?.app_id;
      const allowed =
        origin !== undefined && origin.length <= MAX_ORIGIN && appId !== undefined && appId.length <= MAX_APP_ID && (await policy.allows(appId, origin));
      if (allowed) allowedOrigin.set(request.event, origin);
      if (request.event.httpMethod !== 'OPTIONS') return undefined;
      if (!allowed) return json(403, { message: 'Forbidden' }, { Vary: 'Origin' });
      return {
        statusCode: 204,
        headers: {
          'Access-Control-Allow-Origin': origin,
          'Access-Control-Allow-Methods': method,
          'Access-Control-Allow-Headers': corsAllowedHeaders,
          'Access-Control-Max-Age': String(corsMaxAgeSeconds),
          Vary: 'Origin',
        },
        body: '',
      };
    },
    after: async (request) => decorate(request),
    onError: async (request) => decorate(request),
  };

  function decorate(request: middy.Request<ApiEvent, ApiResult>): void {
    const origin = allowedOrigin.get(request.event);
    const scope = (request.context as Partial<AuthedContext>).principal?.scope;
    // Before the key is known (a refused key) the page may read the 403; once known, only a browser key's answer.
    if (origin && (scope === undefined || scope === 'browser')) {
      withHeaders(request.response, { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' });
    } else {
      withHeaders(request.response, { Vary: 'Origin' });
    }
  }

  const originCheck: middy.MiddlewareObj<ApiEvent, ApiResult> = {
    before: async (request) => {
      const principal = (request.context as AuthedContext).principal;
      const origin = request.event.headers?.origin;
      if (principal.scope !== 'browser') return;
      if (origin === undefined) {
        if (method === 'GET') return;
        throw new Forbidden();
      }
      if (origin.length > MAX_ORIGIN || !(await policy.allows(principal.appId, origin))) throw new Forbidden();
    },
  };

  return { answer, originCheck };
}
