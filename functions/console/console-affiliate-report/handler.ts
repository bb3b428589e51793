import { tables } from '../../manifest/resources';
import { DynamoAffiliateStore } from '../../adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoFunnelStore } from '../../adapters/dynamo-funnel-store';
import { DynamoLinkStore } from '../../adapters/dynamo-link-store';
import { DynamoPlanStore } from '../../adapters/dynamo-plan-store';
import { affiliateReport } from '../../back-office/affiliate-report';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { affiliateIdOf } from '../../domain/affiliates';
import { validReportRangeQuery, type ReportRangeQuery } from '../../domain/report-range';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { validQuery } from '../../http/json-body';
import { json } from '../../http/response';

const affiliatesTable = requireEnv(tables.affiliates.envVar);
const report = affiliateReport({
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  affiliates: new DynamoAffiliateStore(dynamo, affiliatesTable),
  plans: new DynamoPlanStore(dynamo, affiliatesTable),
  funnel: new DynamoFunnelStore(dynamo, requireEnv(tables.funnel.envVar)),
  links: new DynamoLinkStore(dynamo, requireEnv(tables.links.envVar)),
});

/** The same report as GET /api/affiliates/{affiliate_id}/report answers a server key. */
export const handler = consoleApi({ roles: ['admin', 'marketer', 'viewer'], mutates: false })
  .use(validQuery(validReportRangeQuery))
  .handler(async (event: ConsoleEvent) => {
    const { from, to } = event.queryStringParameters as unknown as ReportRangeQuery;
    return json(200, await report(event.console.appId, affiliateIdOf(event.pathParameters), from, to));
  });
