import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoSessionStore } from '../shared/adapters/dynamo-session-store';
import { DynamoSignInTokenStore } from '../shared/adapters/dynamo-sign-in-token-store';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { newSecret } from '../shared/domain/enterprise';
import { html, htmlApi } from '../shared/http/html';
import { logger } from '../shared/logger';
import { errorPage, linkRefusedPage, signedInRedirectPage } from '../shared/portal/pages';
import { sessionCookie } from '../shared/portal/session-cookie';
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
  // Relative, so it lands on the portal home under whatever base path this route is served.
  return html(303, signedInRedirectPage(), {
    Location: 'portal',
    'Set-Cookie': sessionCookie(result.sessionId, result.session.cookie_secure),
  });
});
