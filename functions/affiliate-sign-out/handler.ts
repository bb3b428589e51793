/** POST /affiliates/{app_id}/sign_out: ends the session server-side (its CSRF token required), then back to sign-in. */
import { h } from 'preact';
import { tables } from '../shared/manifest/resources';
import { DynamoAffiliateSessionStore } from '../shared/adapters/dynamo-affiliate-session-store';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { csrfTokenMatches } from '../shared/domain/affiliate-portal';
import { hashSecret, SECRET_PATTERN } from '../shared/domain/enterprise';
import { clearedCookie, SESSION_COOKIE } from '../shared/affiliate-portal/cookies';
import { ForbiddenPage, NotFoundPage } from '../shared/affiliate-portal/pages/access';
import { page, seeOther } from '../shared/affiliate-portal/render';
import { appIdOf, formOf } from '../shared/affiliate-portal/request';
import { portalRoute } from '../shared/affiliate-portal/route';
import { cookieOf } from '../shared/http/html';
import { logger } from '../shared/logger';

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
