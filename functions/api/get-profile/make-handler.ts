/** GET /profiles/{profile_id}, made from its ports: handler.ts passes the container's, a test its fakes. */
import { profileIdOf } from '../../domain/profile-id';
import type { ProfileStore } from '../../domain/timeline';
import { queryApi, type KeyPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { getProfile } from './core';
import { validProfileQuery } from './schema';

export interface GetProfileHandlerPorts extends KeyPorts {
  profiles: Pick<ProfileStore, 'get'>;
}

export function makeGetProfileHandler(ports: GetProfileHandlerPorts) {
  const read = getProfile(ports.profiles);
  return queryApi({ scopes: ['server'], validate: validProfileQuery, keys: ports.keys }).handler(async (event, context) =>
    json(200, await read(context.principal.appId, event.queryStringParameters.app_id, profileIdOf(event.pathParameters))),
  );
}
