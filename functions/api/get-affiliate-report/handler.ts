import { tables } from '../../manifest/resources';
import { DynamoAffiliateStore } from '../../adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoPlanStore } from '../../adapters/dynamo-plan-store';
import { DynamoFunnelStore } from '../../adapters/dynamo-funnel-store';
import { DynamoLinkStore } from '../../adapters/dynamo-link-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { queryApi } from '../../http/json-api';
import { json } from '../../http/response';
import { getAffiliateReport } from './core';
import { validReportQuery } from './schema';

const affiliatesTable = requireEnv(tables.affiliates.envVar);
const report = getAffiliateReport({
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  affiliates: new DynamoAffiliateStore(dynamo, affiliatesTable),
  plans: new DynamoPlanStore(dynamo, affiliatesTable),
  funnel: new DynamoFunnelStore(dynamo, requireEnv(tables.funnel.envVar)),
  links: new DynamoLinkStore(dynamo, requireEnv(tables.links.envVar)),
});

export const handler = queryApi({
  scopes: ['server'],
  validate: validReportQuery,
}).handler(async (event, context) => json(200, await report(context.principal.appId, event.queryStringParameters, event.pathParameters?.affiliate_id)));
