/** POST /affiliates/{app_id}/sign_out: ends the session server-side (its CSRF token required), then back to sign-in. */
import { h } from 'preact';
import { tables } from '../../manifest/resources';
import { DynamoAffiliateSessionStore } from '../../adapters/dynamo-affiliate-session-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { csrfTokenMatches } from '../../domain/affiliate-portal';
import { hashSecret, SECRET_PATTERN } from '../../domain/enterprise';
import { clearedCookie, SESSION_COOKIE } from '../cookies';
import { ForbiddenPage, NotFoundPage } from '../pages/access';
import { page, seeOther } from '../render';
import { appIdOf, formOf } from '../request';
import { portalRoute } from '../route';
import { cookieOf } from '../../http/html';
import { logger } from '../../runtime/logger';

const sessions = new DynamoAffiliateSessionStore(dynamo, requireEnv(tables.affiliateSessions.envVar));

export const handler = portalRoute().handler(async (event) => {
  const appId = appIdOf(event);
  if (!appId) return page(404, h(NotFoundPage, {}));
  const sessionId = cookieOf(event, SESSION_COOKIE);
  if (!sessionId || !SECRET_PATTERN.test(sessionId)) return seeOther('login');
  if (!csrfTokenMatches(sessionId, formOf(event).csrf)) return page(403, h(ForbiddenPage, { appName: undefined }));
  const ended = await sessions.delete(hashSecret(sessionId));
  logger.info('Affiliate signed out', { app_id: appId, ended: ended !== undefined });
  // The Secure attribute it was set with (none when unknown: accepted from any origin).
  return seeOther('login?notice=signed-out', { cookies: [clearedCookie(SESSION_COOKIE, appId, ended?.cookie_secure ?? false)] });
});
