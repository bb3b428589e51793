import { tables } from '../shared/manifest/resources';
import { DynamoProfileStore } from '../shared/adapters/dynamo-profile-store';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { profileIdOf } from '../shared/domain/profile-id';
import { queryApi } from '../shared/http/json-api';
import { json } from '../shared/http/response';
import { getProfile } from './core';
import { validProfileQuery } from './schema';

const read = getProfile(new DynamoProfileStore(dynamo, requireEnv(tables.profiles.envVar)));

export const handler = queryApi({
  scopes: ['server'],
  validate: validProfileQuery,
}).handler(async (event, context) => json(200, await read(context.principal.appId, event.queryStringParameters.app_id, profileIdOf(event.pathParameters))));
