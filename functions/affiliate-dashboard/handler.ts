/** GET /affiliates/{app_id}/: the signed-in affiliate's dashboard for a period (default: this month). */
import { h } from 'preact';
import { tables } from '../shared/manifest/resources';
import { DynamoAffiliateAccounts } from '../shared/adapters/dynamo-affiliate-accounts';
import { DynamoAffiliateSessionStore } from '../shared/adapters/dynamo-affiliate-session-store';
import { DynamoAffiliateStore } from '../shared/adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoFunnelStore } from '../shared/adapters/dynamo-funnel-store';
import { DynamoLinkStore } from '../shared/adapters/dynamo-link-store';
import { DynamoPlanStore } from '../shared/adapters/dynamo-plan-store';
import { affiliateReport } from '../shared/back-office/affiliate-report';
import { dynamo } from '../shared/clients';
import { requireEnv } from '../shared/config';
import { SESSION_COOKIE } from '../shared/affiliate-portal/cookies';
import { affiliateDashboard } from '../shared/affiliate-portal/dashboard';
import { DashboardPage } from '../shared/affiliate-portal/pages/dashboard';
import { page, seeOther } from '../shared/affiliate-portal/render';
import { portalApp, portalRoute } from '../shared/affiliate-portal/route';
import { currentAffiliate } from '../shared/affiliate-portal/session';
import { cookieOf } from '../shared/http/html';

const apps = new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar));
const affiliatesTable = requireEnv(tables.affiliates.envVar);
const dashboard = affiliateDashboard({
  current: currentAffiliate({
    sessions: new DynamoAffiliateSessionStore(dynamo, requireEnv(tables.affiliateSessions.envVar)),
    affiliates: new DynamoAffiliateAccounts(dynamo, affiliatesTable),
    now: () => new Date(),
  }),
  // The operator's report (GET /api/affiliates/{affiliate_id}/report): one computation behind both.
  report: affiliateReport({
    apps,
    affiliates: new DynamoAffiliateStore(dynamo, affiliatesTable),
    plans: new DynamoPlanStore(dynamo, affiliatesTable),
    funnel: new DynamoFunnelStore(dynamo, requireEnv(tables.funnel.envVar)),
    links: new DynamoLinkStore(dynamo, requireEnv(tables.links.envVar)),
  }),
  now: () => new Date(),
});

export const handler = portalRoute().handler(async (event) => {
  const portal = await portalApp(apps, event);
  if (!portal.found) return portal.response;
  const query = event.queryStringParameters ?? {};
  const view = await dashboard(portal.appId, cookieOf(event, SESSION_COOKIE), { from: query.from, to: query.to });
  if (!view.signedIn) return seeOther(view.hadSession ? 'login?notice=expired' : 'login');
  return page(
    200,
    h(DashboardPage, {
      appName: portal.app.name,
      name: `${view.affiliate.first_name} ${view.affiliate.last_name}`,
      csrf: view.csrf,
      period: view.period,
      adjusted: view.adjusted,
      report: view.report,
    }),
  );
});
