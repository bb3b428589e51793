import { tables } from '../../manifest/resources';
import { DynamoAffiliateStore } from '../../adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoFunnelStore } from '../../adapters/dynamo-funnel-store';
import { DynamoPlanStore } from '../../adapters/dynamo-plan-store';
import { DynamoTimelineStore } from '../../adapters/dynamo-timeline-store';
import { affiliateTrace, traceLimits } from '../../back-office/affiliate-report';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { affiliateIdOf } from '../../domain/affiliates';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { validQuery } from '../../http/json-body';
import { json } from '../../http/response';
import { validTraceQuery, type TraceQuery } from './schema';

const affiliatesTable = requireEnv(tables.affiliates.envVar);
const trace = affiliateTrace({
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  affiliates: new DynamoAffiliateStore(dynamo, affiliatesTable),
  plans: new DynamoPlanStore(dynamo, affiliatesTable),
  funnel: new DynamoFunnelStore(dynamo, requireEnv(tables.funnel.envVar)),
  timeline: new DynamoTimelineStore(dynamo, requireEnv(tables.timeline.envVar)),
});

export const handler = consoleApi({ roles: ['admin', 'marketer', 'viewer'], mutates: false })
  .use(validQuery(validTraceQuery))
  .handler(async (event: ConsoleEvent) => {
    const query = event.queryStringParameters as unknown as TraceQuery;
    const limit = query.limit === undefined ? traceLimits.default : Number(query.limit);
    return json(200, await trace(event.console.appId, affiliateIdOf(event.pathParameters), query.from, query.to, { limit, cursor: query.cursor }));
  });
