import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { queryApi } from '../../http/json-api';
import { json } from '../../http/response';
import { getPushConfig } from './core';
import { validPushConfigQuery } from './schema';

const read = getPushConfig(new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)));

export const handler = queryApi({
  scopes: ['browser'],
  validate: validPushConfigQuery,
}).handler(async (event, context) => json(200, await read(context.principal.appId, event.queryStringParameters.app_id)));
