/** GET /affiliates/{app_id}/links: the signed-in affiliate's tracking links and the form to create one. */
import { h } from 'preact';
import { tables } from '../../manifest/resources';
import { DynamoAffiliateAccounts } from '../../adapters/dynamo-affiliate-accounts';
import { DynamoAffiliateSessionStore } from '../../adapters/dynamo-affiliate-session-store';
import { DynamoAffiliateStore } from '../../adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoLinkStore } from '../../adapters/dynamo-link-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { clickAddress, listLinks } from '../../back-office/affiliate-links';
import { csrfTokenFor } from '../../domain/affiliate-portal';
import { SESSION_COOKIE } from '../cookies';
import { LinksPage } from '../pages/links';
import { page, seeOther } from '../render';
import { portalApp, portalRoute } from '../route';
import { currentAffiliate } from '../session';
import { cookieOf } from '../../http/html';
import { requestOrigin } from '../../http/request-origin';

const apps = new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar));
const affiliatesTable = requireEnv(tables.affiliates.envVar);
const current = currentAffiliate({
  sessions: new DynamoAffiliateSessionStore(dynamo, requireEnv(tables.affiliateSessions.envVar)),
  affiliates: new DynamoAffiliateAccounts(dynamo, affiliatesTable),
  now: () => new Date(),
});
const list = listLinks({
  apps,
  affiliates: new DynamoAffiliateStore(dynamo, affiliatesTable),
  links: new DynamoLinkStore(dynamo, requireEnv(tables.links.envVar)),
});

export const handler = portalRoute().handler(async (event) => {
  const portal = await portalApp(apps, event);
  if (!portal.found) return portal.response;
  const sessionId = cookieOf(event, SESSION_COOKIE);
  const signedIn = await current(portal.appId, sessionId);
  if (!signedIn.signedIn) return seeOther(sessionId ? 'login?notice=expired' : 'login');
  const { affiliate } = signedIn;
  // The click address is on the API's own origin, which serves /t/{link_id} as it serves this page.
  const base = requestOrigin(event);
  const links = (await list(portal.appId, affiliate.affiliate_id)).map((link) => ({ ...link, click_address: clickAddress(base, link.link_id) }));
  return page(
    200,
    h(LinksPage, {
      appName: portal.app.name,
      name: `${affiliate.first_name} ${affiliate.last_name}`,
      csrf: csrfTokenFor(signedIn.sessionId),
      links,
      siteOrigins: portal.app.site_origins ?? [],
      created: event.queryStringParameters?.created,
    }),
  );
});
