/** POST /affiliates/{app_id}/reset: uses the token once, stores the new password, ends every session of the affiliate. */
import { h } from 'preact';
import { tables } from '../../manifest/resources';
import { DynamoAffiliateAccounts } from '../../adapters/dynamo-affiliate-accounts';
import { DynamoAffiliateSessionStore } from '../../adapters/dynamo-affiliate-session-store';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoResetTokenStore } from '../../adapters/dynamo-reset-token-store';
import { DynamoSignInAttempts } from '../../adapters/dynamo-sign-in-attempts';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { csrfTokenFor, csrfTokenMatches } from '../../domain/affiliate-portal';
import { hashPassword } from '../../domain/passwords';
import { PRE_SESSION_COOKIE } from '../cookies';
import { ForbiddenPage, ResetLinkRefusedPage, ResetPage } from '../pages/access';
import { page, seeOther } from '../render';
import { completePasswordReset } from '../reset';
import { formOf } from '../request';
import { portalApp, portalRoute, preSession } from '../route';
import { cookieOf } from '../../http/html';
import { logger } from '../../runtime/logger';

const apps = new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar));
const complete = completePasswordReset({
  tokens: new DynamoResetTokenStore(dynamo, requireEnv(tables.resetTokens.envVar)),
  affiliates: new DynamoAffiliateAccounts(dynamo, requireEnv(tables.affiliates.envVar)),
  sessions: new DynamoAffiliateSessionStore(dynamo, requireEnv(tables.affiliateSessions.envVar)),
  attempts: new DynamoSignInAttempts(dynamo, requireEnv(tables.signInAttempts.envVar)),
  hashPassword,
  now: () => new Date(),
});

export const handler = portalRoute().handler(async (event) => {
  const portal = await portalApp(apps, event);
  if (!portal.found) return portal.response;
  const form = formOf(event);
  const preId = cookieOf(event, PRE_SESSION_COOKIE);
  const appName = portal.app.name;
  if (!csrfTokenMatches(preId, form.csrf)) {
    const pre = preSession(event, portal.appId, portal.cookieSecure);
    return page(403, h(ForbiddenPage, { appName }), { cookies: pre.setCookie ? [pre.setCookie] : [] });
  }
  const result = await complete(portal.appId, form.token, form.password ?? '', form.confirm ?? '');
  switch (result.outcome) {
    case 'reset':
      logger.info('Affiliate password reset', { app_id: portal.appId, affiliate_id: result.affiliateId, sessions_ended: result.sessionsEnded });
      return seeOther('login?notice=reset');
    case 'problems':
      return page(400, h(ResetPage, { appName, csrf: csrfTokenFor(preId!), token: form.token ?? '', errors: result.errors }));
    default:
      return page(result.outcome === 'unknown' ? 404 : 410, h(ResetLinkRefusedPage, { appName, reason: result.outcome }));
  }
});
