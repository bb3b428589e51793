import { tables } from '../shared/manifest/resources';
import { DynamoSessionStore } from '../shared/adapters/dynamo-session-store';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { roles } from '../shared/domain/enterprise';
import { consoleApi } from '../shared/http/console-auth';
import { json } from '../shared/http/response';
import { logger } from '../shared/logger';
import { clearedSessionCookie } from '../shared/portal/session-cookie';
import { signOutOfConsole } from './core';

const signOut = signOutOfConsole({ sessions: new DynamoSessionStore(dynamo, requireEnv(tables.portalSessions.envVar)) });

// State-changing: it needs the session's X-CSRF-Token, so another site cannot sign anyone out.
export const handler = consoleApi({ roles, mutates: true }).handler(async (event) => {
  await signOut(event.consoleSession.session_hash);
  logger.info('Console sign-out', { app_id: event.console.appId, user_id: event.console.userId });
  return json(200, { message: 'signed out' }, { 'Set-Cookie': clearedSessionCookie(event.consoleSession.cookie_secure) });
});
