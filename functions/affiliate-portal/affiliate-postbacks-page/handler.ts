/** GET /affiliates/{app_id}/postbacks: the signed-in affiliate's postback URL, the placeholders it may use, and the delivery log. */
import { h } from 'preact';
import { tables } from '../../manifest/resources';
import { DynamoAffiliateAccounts } from '../../adapters/dynamo-affiliate-accounts';
import { DynamoAffiliateSessionStore } from '../../adapters/dynamo-affiliate-session-store';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoPostbackOutbox, DynamoPostbackSettings } from '../../adapters/dynamo-postback-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { postbackDeliveries, postbackLogLimits, postbackUrlOf } from '../../back-office/postbacks';
import { csrfTokenFor } from '../../domain/affiliate-portal';
import { SESSION_COOKIE } from '../cookies';
import { PostbacksPage } from '../pages/postbacks';
import { page, seeOther } from '../render';
import { portalApp, portalRoute } from '../route';
import { currentAffiliate } from '../session';
import { cookieOf } from '../../http/html';

const apps = new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar));
const affiliatesTable = requireEnv(tables.affiliates.envVar);
const current = currentAffiliate({
  sessions: new DynamoAffiliateSessionStore(dynamo, requireEnv(tables.affiliateSessions.envVar)),
  affiliates: new DynamoAffiliateAccounts(dynamo, affiliatesTable),
  now: () => new Date(),
});
const office = {
  apps,
  postbacks: { settings: new DynamoPostbackSettings(dynamo, affiliatesTable), log: new DynamoPostbackOutbox(dynamo, requireEnv(tables.funnel.envVar)) },
};

export const handler = portalRoute().handler(async (event) => {
  const portal = await portalApp(apps, event);
  if (!portal.found) return portal.response;
  const sessionId = cookieOf(event, SESSION_COOKIE);
  const signedIn = await current(portal.appId, sessionId);
  if (!signedIn.signedIn) return seeOther(sessionId ? 'login?notice=expired' : 'login');
  const { affiliate } = signedIn;
  const done = event.queryStringParameters?.done;
  return page(
    200,
    h(PostbacksPage, {
      appName: portal.app.name,
      name: `${affiliate.first_name} ${affiliate.last_name}`,
      csrf: csrfTokenFor(signedIn.sessionId),
      postbackUrl: await postbackUrlOf(office, portal.appId, affiliate.affiliate_id),
      log: await postbackDeliveries(office, portal.appId, affiliate.affiliate_id),
      logLimit: postbackLogLimits.default,
      done: done === 'saved' || done === 'off' ? done : undefined,
    }),
  );
});
