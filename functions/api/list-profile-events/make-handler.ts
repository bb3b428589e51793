/** GET /profiles/{profile_id}/events, made from its ports: handler.ts passes the container's, a test its fakes. */
import { profileIdOf } from '../../domain/profile-id';
import { queryApi, type KeyPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { listProfileEvents, type ListProfileEventsPorts } from './core';
import { validEventsQuery } from './schema';

export type ListProfileEventsHandlerPorts = KeyPorts & ListProfileEventsPorts;

export function makeListProfileEventsHandler(ports: ListProfileEventsHandlerPorts) {
  const list = listProfileEvents(ports);
  return queryApi({ scopes: ['server'], validate: validEventsQuery, keys: ports.keys }).handler(async (event, context) =>
    json(200, await list(context.principal.appId, event.queryStringParameters, profileIdOf(event.pathParameters))),
  );
}
