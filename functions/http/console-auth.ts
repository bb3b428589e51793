/**
 * The back-office console's API (`/console/api/…`, docs/api.md, "Back office
 * API"): JSON routes of one function (functions/console), authorised by the
 * enterprise portal session cookie and the user's role, not by an API key.
 *
 * `consoleApi()` wraps the console's router once: logging context → no-store
 * → error mapping → header normalising. `consoleRouteChecks(route, ports)` is
 * the middleware of one route, in its one order: session → role → (CSRF, when
 * it mutates) → (body bound, media types and schema, when it takes a body) →
 * (query schema). Its handler gets `event.console`: the identity
 * `{ appId, userId, role, email }` and the session. Refusals are answered
 * here: 401 `{"message": "not signed in"}` without a live session (none,
 * unknown, idle for 30 minutes, or 12 hours after sign-in); 403
 * `{"message": "Forbidden"}` when the role may not; 403
 * `{"message": "CSRF token missing or invalid"}` when a state-changing call
 * lacks the session's `X-CSRF-Token`.
 */
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Clock, EnterpriseUserStore, PortalSession, Role } from '../domain/enterprise';
import { Forbidden } from '../domain/errors';
import { consoleCsrf, currentSession, type SessionStore } from '../domain/sessions';
import type { Validator } from '../domain/validation';
import { defaultMaxBodyBytes } from '../manifest/body-limits';
import { logger } from '../runtime/logger';
import { SESSION_COOKIE } from './session-cookie';
import { BodyTooLarge, HttpProblem, httpErrors } from './errors';
import { cookieOf } from './html';
import { describeBytes, jsonBody, validBody, validQuery } from './json-body';
import type { ApiEvent, ApiResult } from './types';

export type { Role } from '../domain/enterprise';

/** Who is calling the console API: established by the session middleware. */
export interface ConsoleIdentity {
  appId: string;
  userId: string;
  role: Role;
  email: string;
}

export const CSRF_HEADER = 'x-csrf-token';

/** No live session: 401, so the console sends the person to sign in again. */
export class NotSignedIn extends HttpProblem {
  constructor() {
    super(401, 'not signed in');
  }
}

/** A state-changing call without the session's CSRF token. */
export class CsrfRefused extends HttpProblem {
  constructor() {
    super(403, 'CSRF token missing or invalid');
  }
}

export interface ConsoleAuthPorts {
  sessions: Pick<SessionStore<PortalSession>, 'get' | 'touch'>;
  users: Pick<EnterpriseUserStore, 'get'>;
  now: Clock;
}

/** The caller, and the session it calls with (its id: the operations about the session itself need it). */
export type ConsoleSession = { identity: ConsoleIdentity; sessionId: string; session: PortalSession };

/**
 * The live session a cookie names and its user (currentSession), moving
 * `last_seen` at most once a minute; undefined when there is none. The user's
 * role is read on every call: a role change takes effect on the next request.
 */
export function consoleSession(ports: ConsoleAuthPorts) {
  // The session names its application: no application of the path to match.
  const current = currentSession(ports, (session: PortalSession) => ports.users.get(session.app_id, session.user_id));
  return async (sessionId: string | undefined): Promise<ConsoleSession | undefined> => {
    const found = await current(sessionId);
    if (!found) return undefined;
    const { principal: user } = found;
    return { identity: { appId: user.app_id, userId: user.user_id, role: user.role, email: user.email }, sessionId: found.sessionId, session: found.session };
  };
}

/** The session id the request's cookie carries (headers normalised to lower case). */
export function consoleSessionId(event: Pick<ApiEvent, 'headers'>): string | undefined {
  return cookieOf(event, SESSION_COOKIE);
}

/** What a console route declares that its middleware checks (functions/console/route.ts). */
export interface ConsoleChecks {
  /** PascalCase id of the route: named in the refusals logged. */
  id: string;
  /** The roles that may call it. */
  roles: readonly Role[];
  /** It changes state: it needs the session's `X-CSRF-Token`. */
  mutates: boolean;
  /** Its JSON body's validator: a route that declares one takes a JSON body. */
  body?: Validator<unknown>;
  /** Its query string's validator. */
  query?: Validator<unknown>;
  /** The largest body it is sent (413 beyond): a JSON body's bound by default defaultMaxBodyBytes; without a body validator, unbounded unless given. */
  maxBodyBytes?: number;
}

/** The body a route's validator gives, or whatever was sent (unread) to a route that takes none. */
export type CheckedBody<C> = C extends { body: Validator<infer B> } ? B : unknown;
/** The query a route's validator gives, or the raw query string of a route that declares none. */
export type CheckedQuery<C> = C extends { query: Validator<infer Q> } ? Q : ApiEvent['queryStringParameters'];

/** An API Gateway event once a route's checks have run: its caller, and its body and query as their validators typed them. */
export type ConsoleEvent<C = ConsoleChecks> = Omit<ApiEvent, 'body' | 'queryStringParameters'> & {
  console: ConsoleSession;
  body: CheckedBody<C>;
  queryStringParameters: CheckedQuery<C>;
};

/** Session → role → CSRF, in that order. */
export function consoleAuth(checks: Pick<ConsoleChecks, 'id' | 'roles' | 'mutates'>, ports: ConsoleAuthPorts): middy.MiddlewareObj<ConsoleEvent> {
  const current = consoleSession(ports);
  return {
    before: async ({ event }) => {
      const called = await current(consoleSessionId(event));
      if (!called) throw new NotSignedIn();
      const { identity } = called;
      if (!checks.roles.includes(identity.role)) {
        logger.info('Console call refused for the role', { route: checks.id, app_id: identity.appId, user_id: identity.userId, role: identity.role });
        throw new Forbidden();
      }
      if (checks.mutates && !consoleCsrf.matches(called.sessionId, event.headers?.[CSRF_HEADER])) throw new CsrfRefused();
      event.console = called;
    },
  };
}

/** A route that takes no body still bounds what it is sent (413 beyond, as a JSON route's); what fits is not read. */
function bodyBound(maxBytes: number): middy.MiddlewareObj<ApiEvent> {
  return {
    before: async ({ event }) => {
      const body = event.body ?? '';
      const size = event.isBase64Encoded ? Buffer.byteLength(body, 'base64') : Buffer.byteLength(body, 'utf8');
      if (size > maxBytes) throw new BodyTooLarge(`request body must be at most ${describeBytes(maxBytes)}`);
    },
  };
}

/**
 * The middleware of one console route, from its declaration: the caller's
 * session, role and CSRF token first, so a refused call reads no body; then
 * its body (bound, Accept, Content-Type, JSON, schema: 413, 406, 415, 400), or
 * only the bound of one that takes none, and its query string (400).
 */
// biome-ignore lint/suspicious/noExplicitAny: a route's chain is typed by its own event (ConsoleEvent<its declaration>); these run before that type holds.
export function consoleRouteChecks(route: ConsoleChecks, ports: ConsoleAuthPorts): middy.MiddlewareObj<any>[] {
  return [
    consoleAuth(route, ports),
    ...(route.body
      ? [...jsonBody({ maxBytes: route.maxBodyBytes ?? defaultMaxBodyBytes }), validBody(route.body)]
      : route.maxBodyBytes !== undefined
        ? [bodyBound(route.maxBodyBytes)]
        : []),
    ...(route.query ? [validQuery(route.query)] : []),
  ];
}

/** Console answers are per user and may carry a CSRF token: never cached, by the browser or on the way. */
const noStore: middy.MiddlewareObj<ApiEvent, ApiResult> = {
  after: async (request) => {
    if (request.response) request.response.headers = { ...request.response.headers, 'Cache-Control': 'no-store' };
  },
  onError: async (request) => {
    if (request.response) request.response.headers = { ...request.response.headers, 'Cache-Control': 'no-store' };
  },
};

/** The chain around the console's router: what every route and the not-found answer share. */
export function consoleApi() {
  return middy<ApiEvent, ApiResult>()
    .use(injectLambdaContext(logger))
    .use(noStore)
    .use(httpErrors() as middy.MiddlewareObj<ApiEvent, ApiResult>)
    .use(httpHeaderNormalizer());
}

/** Who the audit log names for a console call: the signed-in user, by id and email. */
export function consoleActor(identity: Pick<ConsoleIdentity, 'userId' | 'email'>): { user_id: string; email: string } {
  return { user_id: identity.userId, email: identity.email };
}
