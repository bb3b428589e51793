/** POST /affiliates/{app_id}/forgot: mails a reset link if the email is an affiliate's; the page says the same either way. */
import { h } from 'preact';
import { emailSending, tables } from '../../manifest/resources';
import { DynamoAffiliateAccounts } from '../../adapters/dynamo-affiliate-accounts';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoChannelStore } from '../../adapters/dynamo-channel-store';
import { DynamoResetTokenStore } from '../../adapters/dynamo-reset-token-store';
import { DynamoSignInAttempts } from '../../adapters/dynamo-sign-in-attempts';
import { SesMailer } from '../../adapters/ses-mailer';
import { dynamo } from '../../adapters/clients/dynamo';
import { sesv2 } from '../../adapters/clients/sesv2';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { csrfTokenFor, csrfTokenMatches } from '../../domain/affiliate-portal';
import { newSecret } from '../../domain/enterprise';
import { PRE_SESSION_COOKIE, portalPath } from '../cookies';
import { ForbiddenPage, ForgotPage, ResetSentPage } from '../pages/access';
import { resetMail } from '../pages/reset-mail';
import { page } from '../render';
import { requestPasswordReset } from '../reset';
import { formOf } from '../request';
import { portalApp, portalRoute, preSession } from '../route';
import { cookieOf } from '../../http/html';
import { logger } from '../../runtime/logger';

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
