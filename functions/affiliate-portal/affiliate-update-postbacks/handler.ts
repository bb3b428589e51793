/**
 * POST /affiliates/{app_id}/postbacks: sets the signed-in affiliate's postback
 * URL, turns postbacks off, or makes a new signing secret (CSRF token
 * required). A refused URL is shown next to its field; a secret just made is
 * shown in this answer only (never in an address, a log or a later page).
 */
import { h } from 'preact';
import { postbackSending, tables } from '../../manifest/resources';
import { DynamoAffiliateAccounts } from '../../adapters/dynamo-affiliate-accounts';
import { DynamoAffiliateSessionStore } from '../../adapters/dynamo-affiliate-session-store';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoPostbackOutbox, DynamoPostbackSettings } from '../../adapters/dynamo-postback-store';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { postbackDeliveries, postbackLogLimits, postbackUrlOf } from '../../back-office/postbacks';
import { csrfTokenMatches } from '../../domain/affiliate-portal';
import { postbackHostList } from '../../domain/postbacks';
import { SESSION_COOKIE } from '../cookies';
import { changePostbacks } from '../postbacks';
import { ForbiddenPage } from '../pages/access';
import { PostbacksPage } from '../pages/postbacks';
import { page, seeOther } from '../render';
import { formOf } from '../request';
import { portalApp, portalRoute } from '../route';
import { currentAffiliate } from '../session';
import { cookieOf } from '../../http/html';
import { logger } from '../../runtime/logger';

const apps = new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar));
const affiliatesTable = requireEnv(tables.affiliates.envVar);
const current = currentAffiliate({
  sessions: new DynamoAffiliateSessionStore(dynamo, requireEnv(tables.affiliateSessions.envVar)),
  affiliates: new DynamoAffiliateAccounts(dynamo, affiliatesTable),
  now: () => new Date(),
});
const office = {
  apps,
  secrets: secretStoreFromEnv(),
  postbacks: {
    settings: new DynamoPostbackSettings(dynamo, affiliatesTable),
    log: new DynamoPostbackOutbox(dynamo, requireEnv(tables.funnel.envVar)),
    // The operator's development hosts, as the sender and `npm run admin` allow them.
    allowedHosts: postbackHostList(optionalEnv(postbackSending.allowedHostsEnvVar, '')),
  },
};

export const handler = portalRoute().handler(async (event) => {
  const portal = await portalApp(apps, event);
  if (!portal.found) return portal.response;
  const sessionId = cookieOf(event, SESSION_COOKIE);
  const form = formOf(event);
  if (!csrfTokenMatches(sessionId, form.csrf)) return page(403, h(ForbiddenPage, { appName: portal.app.name }));
  const signedIn = await current(portal.appId, sessionId);
  if (!signedIn.signedIn) return seeOther('login?notice=expired');
  const { affiliate } = signedIn;
  const ids = { app_id: portal.appId, affiliate_id: affiliate.affiliate_id };
  const change = await changePostbacks(office, portal.appId, affiliate.affiliate_id, form);
  if (change.changed) logger.info('Affiliate postbacks changed', { ...ids, action: change.action, new_secret: change.signing_secret !== undefined });
  // Without a secret to show, the answer is a redirect, so a reload does not post again.
  if (change.changed && !change.signing_secret) return seeOther(`postbacks?done=${change.action === 'off' ? 'off' : 'saved'}`);
  return page(
    change.changed ? 200 : 400,
    h(PostbacksPage, {
      appName: portal.app.name,
      name: `${affiliate.first_name} ${affiliate.last_name}`,
      csrf: form.csrf!,
      postbackUrl: await postbackUrlOf(office, portal.appId, affiliate.affiliate_id),
      log: await postbackDeliveries(office, portal.appId, affiliate.affiliate_id),
      logLimit: postbackLogLimits.default,
      ...(change.changed
        ? { secret: { value: change.signing_secret!, rotated: change.action === 'rotate' }, done: change.action === 'set' ? ('saved' as const) : undefined }
        : { form: { postback_url: change.postback_url, errors: change.errors } }),
    }),
  );
});
