/** POST /affiliates/{app_id}/login: username or email + password → a session, or a page that says why not. */
import { h } from 'preact';
import { tables } from '../../manifest/resources';
import { DynamoAffiliateAccounts } from '../../adapters/dynamo-affiliate-accounts';
import { DynamoAffiliateSessionStore } from '../../adapters/dynamo-affiliate-session-store';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoSignInAttempts } from '../../adapters/dynamo-sign-in-attempts';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { csrfTokenFor, csrfTokenMatches } from '../../domain/affiliate-portal';
import { newSecret } from '../../domain/enterprise';
import { hashPassword, verifyPassword } from '../../domain/passwords';
import { clearedCookie, PRE_SESSION_COOKIE, sessionCookie } from '../cookies';
import { AccountStatusPage, ForbiddenPage, LockedPage, LoginPage, minutesUntil } from '../pages/access';
import { page, seeOther } from '../render';
import { clientIpOf, formOf } from '../request';
import { portalApp, portalRoute, preSession } from '../route';
import { signInToPortal } from '../sign-in';
import { cookieOf } from '../../http/html';
import { logger } from '../../runtime/logger';

const apps = new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar));
const signIn = signInToPortal({
  affiliates: new DynamoAffiliateAccounts(dynamo, requireEnv(tables.affiliates.envVar)),
  sessions: new DynamoAffiliateSessionStore(dynamo, requireEnv(tables.affiliateSessions.envVar)),
  attempts: new DynamoSignInAttempts(dynamo, requireEnv(tables.signInAttempts.envVar)),
  verifyPassword,
  // Made once per container: an unknown login is checked against it, at the same cost as a real one.
  decoyHash: await hashPassword(newSecret()),
  newSessionId: newSecret,
  now: () => new Date(),
});

export const handler = portalRoute().handler(async (event) => {
  const portal = await portalApp(apps, event);
  if (!portal.found) return portal.response;
  const form = formOf(event);
  const preId = cookieOf(event, PRE_SESSION_COOKIE);
  if (!csrfTokenMatches(preId, form.csrf)) {
    logger.info('Affiliate sign-in refused: CSRF token', { app_id: portal.appId });
    const pre = preSession(event, portal.appId, portal.cookieSecure);
    return page(403, h(ForbiddenPage, { appName: portal.app.name }), { cookies: pre.setCookie ? [pre.setCookie] : [] });
  }
  const result = await signIn({
    appId: portal.appId,
    login: form.login ?? '',
    password: form.password ?? '',
    clientIp: clientIpOf(event),
    cookieSecure: portal.cookieSecure,
  });
  const appName = portal.app.name;
  switch (result.outcome) {
    case 'signed-in':
      logger.info('Affiliate signed in', { app_id: portal.appId, affiliate_id: result.session.affiliate_id });
      return seeOther('./', {
        cookies: [sessionCookie(result.sessionId, portal.appId, portal.cookieSecure), clearedCookie(PRE_SESSION_COOKIE, portal.appId, portal.cookieSecure)],
      });
    case 'invalid':
      return page(401, h(LoginPage, { appName, csrf: csrfTokenFor(preId!), login: form.login, problem: 'invalid' }));
    case 'locked':
      logger.warn('Affiliate sign-in locked', { app_id: portal.appId });
      return page(429, h(LockedPage, { appName, minutes: minutesUntil(result.until, new Date()) }), {
        headers: { 'Retry-After': String(Math.max(1, Math.ceil((result.until.getTime() - Date.now()) / 1000))) },
      });
    default:
      return page(403, h(AccountStatusPage, { appName, status: result.outcome }));
  }
});
