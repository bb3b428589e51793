/**
 * The back-office console's API (`/console/api/…`, docs/api.md, "Back office
 * API"): JSON operations authorised by the enterprise portal session cookie
 * and the user's role, not by an API key.
 *
 * `consoleApi({ roles, mutates })` is the middleware chain of every such
 * operation: logging context → no-store → error mapping → header normalising
 * → session → role → (CSRF, when it mutates). Its handler gets
 * `event.console = { appId, userId, role, email }`. Refusals are answered
 * here: 401 `{"message": "not signed in"}` without a live session (none,
 * unknown, idle for 30 minutes, or 12 hours after sign-in); 403
 * `{"message": "Forbidden"}` when the role may not; 403
 * `{"message": "CSRF token missing or invalid"}` when a state-changing call
 * lacks the session's `X-CSRF-Token`.
 */
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { DynamoEnterpriseUserStore } from '../adapters/dynamo-enterprise-user-store';
import { DynamoSessionStore } from '../adapters/dynamo-session-store';
import { dynamo } from '../adapters/clients/dynamo';
import { requireEnv } from '../runtime/config';
import {
  consoleCsrfTokenMatches,
  hashSecret,
  SECRET_PATTERN,
  sessionIsLive,
  shouldTouchSession,
  type Clock,
  type EnterpriseUserStore,
  type PortalSession,
  type Role,
  type SessionStore,
} from '../domain/enterprise';
import { Forbidden } from '../domain/errors';
import { tables } from '../manifest/resources';
import { logger } from '../runtime/logger';
import { SESSION_COOKIE } from './session-cookie';
import { HttpProblem, httpErrors } from './errors';
import { cookieOf } from './html';
import type { ApiEvent, ApiResult } from './types';

export type { Role } from '../domain/enterprise';

/** Who is calling the console API: established by the session middleware. */
export interface ConsoleIdentity {
  appId: string;
  userId: string;
  role: Role;
  email: string;
}

/** `consoleSession`: the session itself, for the operations about it (who am I, sign out). */
export type ConsoleEvent = ApiEvent & {
  console: ConsoleIdentity;
  consoleSession: Pick<PortalSession, 'session_hash' | 'created_at' | 'expires_at' | 'cookie_secure'>;
};

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
  sessions: Pick<SessionStore, 'get' | 'touch'>;
  users: Pick<EnterpriseUserStore, 'get'>;
  now: Clock;
}

export type ConsoleSession = { identity: ConsoleIdentity; sessionId: string; session: PortalSession };

/**
 * The live session a cookie names and its user, moving `last_seen` at most
 * once a minute; undefined when there is none. The user's role is read on
 * every call: a role change takes effect on the next request.
 */
export function consoleSession(ports: ConsoleAuthPorts) {
  return async (sessionId: string | undefined): Promise<ConsoleSession | undefined> => {
    if (!sessionId || !SECRET_PATTERN.test(sessionId)) return undefined;
    const now = ports.now();
    const sessionHash = hashSecret(sessionId);
    const session = await ports.sessions.get(sessionHash);
    // DynamoDB's TTL sweeps late; the expiry (idle and absolute) is enforced here.
    if (!session || !sessionIsLive(session, now)) return undefined;
    const user = await ports.users.get(session.app_id, session.user_id);
    if (!user) return undefined;
    if (shouldTouchSession(session, now)) await ports.sessions.touch(sessionHash, now);
    return { identity: { appId: user.app_id, userId: user.user_id, role: user.role, email: user.email }, sessionId, session };
  };
}

/** The session id the request's cookie carries (headers normalised to lower case). */
export function consoleSessionId(event: Pick<ApiEvent, 'headers'>): string | undefined {
  return cookieOf(event, SESSION_COOKIE);
}

export interface ConsoleApiOptions {
  /** The roles that may call the operation. */
  roles: readonly Role[];
  /** The operation changes state: it needs the session's `X-CSRF-Token`. */
  mutates: boolean;
  /** Where sessions and users are read; by default the container's DynamoDB stores. */
  ports?: ConsoleAuthPorts;
}

/** Session → role → CSRF, in that order. */
export function consoleAuth(options: ConsoleApiOptions): middy.MiddlewareObj<ConsoleEvent, ApiResult> {
  return {
    before: async ({ event }) => {
      const sessionId = consoleSessionId(event);
      const current = await consoleSession(options.ports ?? defaultPorts())(sessionId);
      if (!current) throw new NotSignedIn();
      if (!options.roles.includes(current.identity.role)) {
        logger.info('Console call refused for the role', { app_id: current.identity.appId, user_id: current.identity.userId, role: current.identity.role });
        throw new Forbidden();
      }
      if (options.mutates && !consoleCsrfTokenMatches(current.sessionId, event.headers?.[CSRF_HEADER])) throw new CsrfRefused();
      event.console = current.identity;
      event.consoleSession = current.session;
    },
  };
}

/** Console answers are per user and may carry a CSRF token: never cached, by the browser or on the way. */
const noStore: middy.MiddlewareObj<ConsoleEvent, ApiResult> = {
  after: async (request) => {
    if (request.response) request.response.headers = { ...request.response.headers, 'Cache-Control': 'no-store' };
  },
  onError: async (request) => {
    if (request.response) request.response.headers = { ...request.response.headers, 'Cache-Control': 'no-store' };
  },
};

/** The chain of a console operation; a handler adds only its core (and, with a body, jsonBody and validBody). */
export function consoleApi(options: ConsoleApiOptions) {
  return middy<ConsoleEvent, ApiResult>()
    .use(injectLambdaContext(logger))
    .use(noStore)
    .use(httpErrors() as middy.MiddlewareObj<ConsoleEvent, ApiResult>)
    .use(httpHeaderNormalizer())
    .use(consoleAuth(options));
}

let sharedPorts: ConsoleAuthPorts | undefined;
/** The container's session and user stores, made on first use. */
function defaultPorts(): ConsoleAuthPorts {
  sharedPorts ??= {
    sessions: new DynamoSessionStore(dynamo, requireEnv(tables.portalSessions.envVar)),
    users: new DynamoEnterpriseUserStore(dynamo, requireEnv(tables.enterpriseUsers.envVar)),
    now: () => new Date(),
  };
  return sharedPorts;
}

/** Who the audit log names for a console call: the signed-in user, by id and email. */
export function consoleActor(event: Pick<ConsoleEvent, 'console'>): { user_id: string; email: string } {
  return { user_id: event.console.userId, email: event.console.email };
}
