/** POST /affiliates/{app_id}/forgot: mails a reset link if the email is an affiliate's; the page says the same either way. */
import { h } from 'preact';
import { emailSending, tables } from '../shared/manifest/resources';
import { DynamoAffiliateAccounts } from '../shared/adapters/dynamo-affiliate-accounts';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoChannelStore } from '../shared/adapters/dynamo-channel-store';
import { DynamoResetTokenStore } from '../shared/adapters/dynamo-reset-token-store';
import { DynamoSignInAttempts } from '../shared/adapters/dynamo-sign-in-attempts';
import { SesMailer } from '../shared/adapters/ses-mailer';
import { dynamo } from '../shared/clients/dynamo';
import { sesv2 } from '../shared/clients/sesv2';
import { optionalEnv, requireEnv } from '../shared/config';
import { csrfTokenFor, csrfTokenMatches } from '../shared/domain/affiliate-portal';
import { newSecret } from '../shared/domain/enterprise';
import { PRE_SESSION_COOKIE, portalPath } from '../shared/affiliate-portal/cookies';
import { ForbiddenPage, ForgotPage, ResetSentPage } from '../shared/affiliate-portal/pages/access';
import { resetMail } from '../shared/affiliate-portal/pages/reset-mail';
import { page } from '../shared/affiliate-portal/render';
import { requestPasswordReset } from '../shared/affiliate-portal/reset';
import { formOf } from '../shared/affiliate-portal/request';
import { portalApp, portalRoute, preSession } from '../shared/affiliate-portal/route';
import { cookieOf } from '../shared/http/html';
import { logger } from '../shared/logger';

const apps = new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar));
const requestReset = requestPasswordReset({
  affiliates: new DynamoAffiliateAccounts(dynamo, requireEnv(tables.affiliates.envVar)),
  tokens: new DynamoResetTokenStore(dynamo, requireEnv(tables.resetTokens.envVar)),
  channels: new DynamoChannelStore(dynamo, requireEnv(tables.channels.envVar)),
  attempts: new DynamoSignInAttempts(dynamo, requireEnv(tables.signInAttempts.envVar)),
  mailer: new SesMailer(sesv2, optionalEnv(emailSending.configurationSetEnvVar, '') || undefined),
  newToken: newSecret,
  now: () => new Date(),
});

export const handler = portalRoute().handler(async (event) => {
  const portal = await portalApp(apps, event);
  if (!portal.found) return portal.response;
  const form = formOf(event);
  const preId = cookieOf(event, PRE_SESSION_COOKIE);
  if (!csrfTokenMatches(preId, form.csrf)) {
    const pre = preSession(event, portal.appId, portal.cookieSecure);
    return page(403, h(ForbiddenPage, { appName: portal.app.name }), { cookies: pre.setCookie ? [pre.setCookie] : [] });
  }
  const appName = portal.app.name;
  const outcome = await requestReset(
    portal.app,
    form.email ?? '',
    (token) => `${portal.origin}${portalPath(portal.appId)}reset?token=${token}`,
    (link, firstName) => resetMail(link, firstName, appName),
  );
  // Only the log tells the outcomes apart; the person sees the same page.
  if (outcome === 'no-channel') logger.warn('Password reset not sent: the application has no enabled email channel', { app_id: portal.appId });
  else logger.info('Password reset requested', { app_id: portal.appId, outcome });
  if (outcome === 'invalid') {
    return page(400, h(ForgotPage, { appName, csrf: csrfTokenFor(preId!), email: form.email, error: 'Enter the email address of your account.' }));
  }
  return page(200, h(ResetSentPage, { appName }));
});
