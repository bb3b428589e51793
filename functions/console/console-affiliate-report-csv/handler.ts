import { tables } from '../../manifest/resources';
import { DynamoAffiliateStore } from '../../adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoFunnelStore } from '../../adapters/dynamo-funnel-store';
import { DynamoLinkStore } from '../../adapters/dynamo-link-store';
import { DynamoPlanStore } from '../../adapters/dynamo-plan-store';
import { affiliateReport } from '../../back-office/affiliate-report';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { csvFileName, reportCsv } from '../../back-office/affiliate-report-csv';
import { affiliateIdOf } from '../../domain/affiliates';
import { validReportRangeQuery, type ReportRangeQuery } from '../../domain/report-range';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { validQuery } from '../../http/json-body';

const affiliatesTable = requireEnv(tables.affiliates.envVar);
const report = affiliateReport({
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  affiliates: new DynamoAffiliateStore(dynamo, affiliatesTable),
  plans: new DynamoPlanStore(dynamo, affiliatesTable),
  funnel: new DynamoFunnelStore(dynamo, requireEnv(tables.funnel.envVar)),
  links: new DynamoLinkStore(dynamo, requireEnv(tables.links.envVar)),
});

/** The report as the affiliate portal's CSV download makes it, named after the affiliate. */
export const handler = consoleApi({ roles: ['admin', 'marketer', 'viewer'], mutates: false })
  .use(validQuery(validReportRangeQuery))
  .handler(async (event: ConsoleEvent) => {
    const { from, to } = event.queryStringParameters as unknown as ReportRangeQuery;
    const result = await report(event.console.appId, affiliateIdOf(event.pathParameters), from, to);
    return {
      statusCode: 200,
      headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${csvFileName(result, { affiliate: true })}"` },
      body: reportCsv(result),
    };
  });
