import { tables } from '../shared/manifest/resources';
import { DynamoAffiliateStore } from '../shared/adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoFunnelStore } from '../shared/adapters/dynamo-funnel-store';
import { DynamoLinkStore } from '../shared/adapters/dynamo-link-store';
import { DynamoPlanStore } from '../shared/adapters/dynamo-plan-store';
import { affiliateReport } from '../shared/back-office/affiliate-report';
import { dynamo } from '../shared/clients';
import { requireEnv } from '../shared/config';
import { affiliateIdOf } from '../shared/domain/affiliates';
import { reportRangeQuerySchema, type ReportRangeQuery } from '../shared/domain/report-range';
import { compileValidator } from '../shared/domain/validation';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { validQuery } from '../shared/http/json-body';
import { json } from '../shared/http/response';

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
  .use(validQuery(compileValidator<ReportRangeQuery>(reportRangeQuerySchema, 'query string')))
  .handler(async (event: ConsoleEvent) => {
    const { from, to } = event.queryStringParameters as unknown as ReportRangeQuery;
    return json(200, await report(event.console.appId, affiliateIdOf(event.pathParameters), from, to));
  });
