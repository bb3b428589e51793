import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { compileValidator } from '../shared/domain/validation';
import { queryApi } from '../shared/http/json-api';
import { json } from '../shared/http/response';
import { getPushConfig } from './core';
import { pushConfigQuerySchema, type PushConfigQuery } from './schema';

const read = getPushConfig(new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)));

export const handler = queryApi({
  scopes: ['browser'],
  validate: compileValidator<PushConfigQuery>(pushConfigQuerySchema, 'query string'),
}).handler(async (event, context) => json(200, await read(context.principal.appId, event.queryStringParameters.app_id)));
