import { tables } from '../shared/manifest/resources';
import { DynamoAffiliateStore } from '../shared/adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoFunnelStore } from '../shared/adapters/dynamo-funnel-store';
import { DynamoPlanStore } from '../shared/adapters/dynamo-plan-store';
import { DynamoTimelineStore } from '../shared/adapters/dynamo-timeline-store';
import { affiliateTrace, traceLimits } from '../shared/back-office/affiliate-report';
import { dynamo } from '../shared/clients';
import { requireEnv } from '../shared/config';
import { affiliateIdOf } from '../shared/domain/affiliates';
import { compileValidator } from '../shared/domain/validation';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { validQuery } from '../shared/http/json-body';
import { json } from '../shared/http/response';
import { traceQuerySchema, type TraceQuery } from './schema';

const affiliatesTable = requireEnv(tables.affiliates.envVar);
const trace = affiliateTrace({
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  affiliates: new DynamoAffiliateStore(dynamo, affiliatesTable),
  plans: new DynamoPlanStore(dynamo, affiliatesTable),
  funnel: new DynamoFunnelStore(dynamo, requireEnv(tables.funnel.envVar)),
  timeline: new DynamoTimelineStore(dynamo, requireEnv(tables.timeline.envVar)),
});

export const handler = consoleApi({ roles: ['admin', 'marketer', 'viewer'], mutates: false })
  .use(validQuery(compileValidator<TraceQuery>(traceQuerySchema, 'query string')))
  .handler(async (event: ConsoleEvent) => {
    const query = event.queryStringParameters as unknown as TraceQuery;
    const limit = query.limit === undefined ? traceLimits.default : Number(query.limit);
    return json(200, await trace(event.console.appId, affiliateIdOf(event.pathParameters), query.from, query.to, { limit, cursor: query.cursor }));
  });
