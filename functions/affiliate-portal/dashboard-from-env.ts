/**
 * The dashboard's use case composed from the function's environment, as the
 * dashboard page and its CSV download both need it (one composition, so the
 * two can never read different stores).
 */
import { DynamoAffiliateAccounts } from '../adapters/dynamo-affiliate-accounts';
import { DynamoAffiliateSessionStore } from '../adapters/dynamo-affiliate-session-store';
import { DynamoAffiliateStore } from '../adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../adapters/dynamo-app-store';
import { DynamoFunnelStore } from '../adapters/dynamo-funnel-store';
import { DynamoLinkStore } from '../adapters/dynamo-link-store';
import { DynamoPlanStore } from '../adapters/dynamo-plan-store';
import { affiliateReport } from '../back-office/affiliate-report';
import { dynamo } from '../adapters/clients/dynamo';
import { requireEnv } from '../runtime/config';
import { tables } from '../manifest/resources';
import { affiliateDashboard } from './dashboard';
import { currentAffiliate } from './session';

export function dashboardFromEnvironment() {
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
  return { apps, dashboard };
}
