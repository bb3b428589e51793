/**
 * CORS for the operations a browser key may call (DECISIONS.md, "Keys and
 * access"): only from the origins configured for the application, only for
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
 *   Requests without an Origin (same-origin GETs, tools) are not browsers'
 *   cross-origin calls, and pass.
 */
import type middy from '@middy/core';
import type { App, AppStore } from '../domain/apps';
import { Forbidden } from '../domain/errors';
import { json } from './response';
import type { ApiEvent, ApiResult, AuthedContext } from './types';

/** Port: whether an application accepts browser calls from an origin. */
export interface OriginPolicy {
  allows(appId: string, origin: string): Promise<boolean>;
}

/** Site origins from the applications table, kept 30 seconds per container, like keys. */
export class AppOrigins implements OriginPolicy {
  private readonly cache = new Map<string, { origins: readonly string[]; expires: number }>();

  constructor(
    private readonly apps: Pick<AppStore, 'get'>,
    private readonly options = { ttlMs: 30_000, maxEntries: 10_000, now: Date.now },
  ) {}

  async allows(appId: string, origin: string): Promise<boolean> {
    const now = this.options.now();
    let entry = this.cache.get(appId);
    if (!entry || entry.expires <= now) {
      const app: App | undefined = await this.apps.get(appId);
      if (this.cache.size >= this.options.maxEntries) this.cache.clear();
      entry = { origins: app?.site_origins ?? [], expires: now + this.options.ttlMs };
      this.cache.set(appId, entry);
    }
    return entry.origins.includes(origin);
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
        origin !== undefined &&
        origin.length <= MAX_ORIGIN &&
        appId !== undefined &&
        appId.length <= MAX_APP_ID &&
        (await policy.allows(appId, origin));
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
      if (principal.scope !== 'browser' || origin === undefined) return;
      if (origin.length > MAX_ORIGIN || !(await policy.allows(principal.appId, origin))) throw new Forbidden();
    },
  };

  return { answer, originCheck };
}
