import { tables } from '../shared/manifest/resources';
import { DynamoAffiliateStore } from '../shared/adapters/dynamo-affiliate-store';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { queryApi } from '../shared/http/json-api';
import { json } from '../shared/http/response';
import { listAffiliates } from './core';
import { validAffiliatesQuery } from './schema';

const list = listAffiliates({ affiliates: new DynamoAffiliateStore(dynamo, requireEnv(tables.affiliates.envVar)) });

export const handler = queryApi({
  scopes: ['server'],
  validate: validAffiliatesQuery,
}).handler(async (event, context) => json(200, await list(context.principal.appId, event.queryStringParameters)));
