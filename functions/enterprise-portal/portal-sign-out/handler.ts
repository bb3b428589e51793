import { tables } from '../../manifest/resources';
import { DynamoSessionStore } from '../../adapters/dynamo-session-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { cookieOf, html, htmlApi } from '../../http/html';
import { logger } from '../../runtime/logger';
import { errorPage, signedOutPage } from '../pages';
import { clearedSessionCookie, SESSION_COOKIE } from '../../http/session-cookie';
import { signOutOfPortal } from './core';

const signOut = signOutOfPortal({ sessions: new DynamoSessionStore(dynamo, requireEnv(tables.portalSessions.envVar)) });

// A cross-site form cannot sign anyone out: the SameSite=Lax cookie is not sent with it.
export const handler = htmlApi({ errorPage }).handler(async (event) => {
  const result = await signOut(cookieOf(event, SESSION_COOKIE));
  logger.info('Portal sign-out', { ended: result.ended });
  return html(200, signedOutPage(), { 'Set-Cookie': clearedSessionCookie(result.cookieSecure) });
});
