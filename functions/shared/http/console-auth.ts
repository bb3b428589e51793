/**
 * STAND-IN for lane S's console auth (issue #16): the agreed interface only,
 * so the players operations can be written and tested against it. The merger
 * takes lane S's file instead of this one.
 *
 * `consoleApi({ roles, mutates })` → a middy chain whose handler gets
 * `event.console = { appId, userId, role, email }`; it answers 401 JSON when
 * there is no live portal session, 403 JSON when the role may not, and 403
 * JSON when a state-changing call lacks the session's CSRF token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { tables } from '../manifest/resources';
import { DynamoSessionStore } from '../adapters/dynamo-session-store';
import { dynamo } from '../clients';
import { requireEnv } from '../config';
import { hashSecret, SECRET_PATTERN } from '../domain/enterprise';
import { logger } from '../logger';
import { SESSION_COOKIE } from '../portal/session-cookie';
import { httpErrors, HttpProblem } from './errors';
import { cookieOf } from './html';
import type { ApiEvent, ApiResult } from './types';

export type Role = 'admin' | 'marketer' | 'viewer';

export interface ConsoleUser {
  appId: string;
  userId: string;
  role: Role;
  email: string;
}

export type ConsoleEvent<E = ApiEvent> = E & { console: ConsoleUser };

/** Stand-in CSRF token: derived from the session id, which only the HttpOnly cookie carries. */
export function consoleCsrfToken(sessionId: string): string {
  return createHash('sha256').update(`csrf#${sessionId}`, 'utf8').digest('base64url');
}

const sameToken = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function consoleApi<E = ApiEvent>(options: { roles: readonly Role[]; mutates: boolean }) {
  const sessions = new DynamoSessionStore(dynamo, requireEnv(tables.portalSessions.envVar));
  const usersTable = requireEnv(tables.enterpriseUsers.envVar);
  const auth: middy.MiddlewareObj<ConsoleEvent<E>, ApiResult> = {
    before: async ({ event }) => {
      const sessionId = cookieOf(event as unknown as ApiEvent, SESSION_COOKIE);
      if (!sessionId || !SECRET_PATTERN.test(sessionId)) throw new HttpProblem(401, 'Not signed in');
      const session = await sessions.get(hashSecret(sessionId));
      if (!session || session.expires_at <= new Date().toISOString()) throw new HttpProblem(401, 'Not signed in');
      // Stand-in: the raw item, for a `role` lane S stores; users without one act as admins.
      const user = (await dynamo.send(new GetCommand({ TableName: usersTable, Key: { pk: `user#${session.app_id}#${session.user_id}` }, ConsistentRead: true }))).Item as
        | { user_id: string; email: string; role?: Role }
        | undefined;
      if (!user) throw new HttpProblem(401, 'Not signed in');
      const role = user.role ?? 'admin';
      if (!options.roles.includes(role)) throw new HttpProblem(403, 'Forbidden');
      if (options.mutates) {
        const sent = (event as unknown as ApiEvent).headers?.['x-csrf-token'] ?? '';
        if (!sameToken(sent, consoleCsrfToken(sessionId))) throw new HttpProblem(403, 'Forbidden');
      }
      event.console = { appId: session.app_id, userId: user.user_id, role, email: user.email };
    },
  };
  return middy<ConsoleEvent<E>, ApiResult>()
    .use(injectLambdaContext(logger))
    .use(httpErrors())
    .use(httpHeaderNormalizer())
    .use(auth);
}
