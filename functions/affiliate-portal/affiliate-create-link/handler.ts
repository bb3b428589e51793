/** POST /affiliates/{app_id}/links: creates a link of the signed-in affiliate (CSRF token required); errors shown next to their field. */
import { h } from 'preact';
import { tables } from '../../manifest/resources';
import { DynamoAffiliateAccounts } from '../../adapters/dynamo-affiliate-accounts';
import { DynamoAffiliateSessionStore } from '../../adapters/dynamo-affiliate-session-store';
import { DynamoAffiliateStore } from '../../adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoLinkStore } from '../../adapters/dynamo-link-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { clickAddress, createLink, listLinks } from '../../back-office/affiliate-links';
import { csrfTokenMatches } from '../../domain/affiliate-portal';
import { SESSION_COOKIE } from '../cookies';
import { createLinkFor } from '../links';
import { ForbiddenPage } from '../pages/access';
import { LinksPage } from '../pages/links';
import { page, seeOther } from '../render';
import { formOf } from '../request';
import { portalApp, portalRoute } from '../route';
import { currentAffiliate } from '../session';
import { cookieOf } from '../../http/html';
import { requestOrigin } from '../../http/request-origin';
import { logger } from '../../runtime/logger';

const apps = new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar));
const affiliatesTable = requireEnv(tables.affiliates.envVar);
const current = currentAffiliate({
  sessions: new DynamoAffiliateSessionStore(dynamo, requireEnv(tables.affiliateSessions.envVar)),
  affiliates: new DynamoAffiliateAccounts(dynamo, affiliatesTable),
  now: () => new Date(),
});
const office = { apps, affiliates: new DynamoAffiliateStore(dynamo, affiliatesTable), links: new DynamoLinkStore(dynamo, requireEnv(tables.links.envVar)) };
const create = createLink(office);
const list = listLinks(office);

export const handler = portalRoute().handler(async (event) => {
  const portal = await portalApp(apps, event);
  if (!portal.found) return portal.response;
  const sessionId = cookieOf(event, SESSION_COOKIE);
  const form = formOf(event);
  if (!csrfTokenMatches(sessionId, form.csrf)) return page(403, h(ForbiddenPage, { appName: portal.app.name }));
  const signedIn = await current(portal.appId, sessionId);
  if (!signedIn.signedIn) return seeOther('login?notice=expired');
  const { affiliate } = signedIn;
  const input = { name: form.name ?? '', landing_url: form.landing_url ?? '' };
  const outcome = await createLinkFor(create, portal.appId, affiliate.affiliate_id, input);
  if (outcome.created) {
    logger.info('Affiliate link created', { app_id: portal.appId, affiliate_id: affiliate.affiliate_id, link_id: outcome.link.link_id });
    return seeOther(`links?created=${encodeURIComponent(outcome.link.link_id)}`);
  }
  const base = requestOrigin(event);
  const links = (await list(portal.appId, affiliate.affiliate_id)).map((link) => ({ ...link, click_address: clickAddress(base, link.link_id) }));
  return page(
    400,
    h(LinksPage, {
      appName: portal.app.name,
      name: `${affiliate.first_name} ${affiliate.last_name}`,
      csrf: form.csrf!,
      links,
      siteOrigins: portal.app.site_origins ?? [],
      form: { ...input, errors: outcome.errors },
    }),
  );
});
