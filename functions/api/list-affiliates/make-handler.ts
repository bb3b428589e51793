/** GET /api/affiliates, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { BackOffice } from '../../back-office/ports';
import { queryApi, type KeyPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { listAffiliates } from './core';
import { validAffiliatesQuery } from './schema';

export type ListAffiliatesHandlerPorts = KeyPorts & Pick<BackOffice, 'affiliates'>;

export function makeListAffiliatesHandler(ports: ListAffiliatesHandlerPorts) {
  const list = listAffiliates(ports);
  return queryApi({ scopes: ['server'], validate: validAffiliatesQuery, keys: ports.keys }).handler(async (event, context) =>
    json(200, await list(context.principal.appId, event.queryStringParameters)),
  );
}
