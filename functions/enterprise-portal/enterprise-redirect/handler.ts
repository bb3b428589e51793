import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoSessionStore } from '../../adapters/dynamo-session-store';
import { DynamoSignInTokenStore } from '../../adapters/dynamo-sign-in-token-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { newSecret } from '../../domain/enterprise';
import { html, htmlApi } from '../../http/html';
import { logger } from '../../runtime/logger';
import { CONSOLE_LANDING, errorPage, linkRefusedPage, signedInRedirectPage } from '../pages';
import { sessionCookie } from '../../http/session-cookie';
import { redirectIntoPortal } from './core';

const redirect = redirectIntoPortal({
  tokens: new DynamoSignInTokenStore(dynamo, requireEnv(tables.signInTokens.envVar)),
  sessions: new DynamoSessionStore(dynamo, requireEnv(tables.portalSessions.envVar)),
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  newSessionId: newSecret,
  now: () => new Date(),
});

export const handler = htmlApi({ errorPage }).handler(async (event) => {
  const result = await redirect(event.queryStringParameters?.token);
  if (result.outcome !== 'signed-in') {
    logger.info('Sign-in link refused', { outcome: result.outcome });
    return html(401, linkRefusedPage(result.outcome));
  }
  logger.info('Portal session started', { app_id: result.session.app_id, user_id: result.session.user_id });
  // Relative: /redirect is served at the root of the portal origin (the CDN in AWS, the local server), and the
  // console beside it at /console/ (docs/architecture.md, "The back-office console").
  return html(303, signedInRedirectPage(), {
    Location: CONSOLE_LANDING,
    'Set-Cookie': sessionCookie(result.sessionId, result.session.cookie_secure),
  });
});
