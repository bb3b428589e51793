import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { queryApi } from '../shared/http/json-api';
import { json } from '../shared/http/response';
import { getPushConfig } from './core';
import { validPushConfigQuery } from './schema';

const read = getPushConfig(new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)));

export const handler = queryApi({
  scopes: ['browser'],
  validate: validPushConfigQuery,
}).handler(async (event, context) => json(200, await read(context.principal.appId, event.queryStringParameters.app_id)));
