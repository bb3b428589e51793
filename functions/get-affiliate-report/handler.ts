import { tables } from '../shared/manifest/resources';
import { DynamoAffiliateStore } from '../shared/adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoPlanStore } from '../shared/adapters/dynamo-plan-store';
import { unwiredFunnelReader } from '../shared/adapters/unwired-funnel-reader';
import { dynamo } from '../shared/clients';
import { requireEnv } from '../shared/config';
import { compileValidator } from '../shared/domain/validation';
import { queryApi } from '../shared/http/json-api';
import { json } from '../shared/http/response';
import { getAffiliateReport } from './core';
import { reportQuerySchema, type ReportQuery } from './schema';

const affiliatesTable = requireEnv(tables.affiliates.envVar);
const report = getAffiliateReport({
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  affiliates: new DynamoAffiliateStore(dynamo, affiliatesTable),
  plans: new DynamoPlanStore(dynamo, affiliatesTable),
  funnel: unwiredFunnelReader,
});

export const handler = queryApi({
  scopes: ['server'],
  validate: compileValidator<ReportQuery>(reportQuerySchema, 'query string'),
}).handler(async (event, context) =>
  json(200, await report(context.principal.appId, event.queryStringParameters, event.pathParameters?.affiliate_id)),
);
