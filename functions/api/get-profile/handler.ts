import { tables } from '../../manifest/resources';
import { DynamoProfileStore } from '../../adapters/dynamo-profile-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { profileIdOf } from '../../domain/profile-id';
import { queryApi } from '../../http/json-api';
import { json } from '../../http/response';
import { getProfile } from './core';
import { validProfileQuery } from './schema';

const read = getProfile(new DynamoProfileStore(dynamo, requireEnv(tables.profiles.envVar)));

export const handler = queryApi({
  scopes: ['server'],
  validate: validProfileQuery,
}).handler(async (event, context) => json(200, await read(context.principal.appId, event.queryStringParameters.app_id, profileIdOf(event.pathParameters))));
