import { tables } from '../../manifest/resources';
import { DynamoAffiliateStore } from '../../adapters/dynamo-affiliate-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { queryApi } from '../../http/json-api';
import { json } from '../../http/response';
import { listAffiliates } from './core';
import { validAffiliatesQuery } from './schema';

const list = listAffiliates({ affiliates: new DynamoAffiliateStore(dynamo, requireEnv(tables.affiliates.envVar)) });

export const handler = queryApi({
  scopes: ['server'],
  validate: validAffiliatesQuery,
}).handler(async (event, context) => json(200, await list(context.principal.appId, event.queryStringParameters)));
