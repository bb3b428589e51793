import { tables } from '../../manifest/resources';
import { DynamoSessionStore } from '../../adapters/dynamo-session-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { roles } from '../../domain/enterprise';
import { consoleApi } from '../../http/console-auth';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { clearedSessionCookie } from '../../http/session-cookie';
import { signOutOfConsole } from './core';

const signOut = signOutOfConsole({ sessions: new DynamoSessionStore(dynamo, requireEnv(tables.portalSessions.envVar)) });

// State-changing: it needs the session's X-CSRF-Token, so another site cannot sign anyone out.
export const handler = consoleApi({ roles, mutates: true }).handler(async (event) => {
  await signOut(event.consoleSession.session_hash);
  logger.info('Console sign-out', { app_id: event.console.appId, user_id: event.console.userId });
  return json(200, { message: 'signed out' }, { 'Set-Cookie': clearedSessionCookie(event.consoleSession.cookie_secure) });
});
