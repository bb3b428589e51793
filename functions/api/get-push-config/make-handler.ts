/** GET /push/config (browser key), made from its ports: handler.ts passes the container's, a test its fakes. */
import type { AppStore } from '../../domain/apps';
import { queryApi, type BrowserPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { getPushConfig } from './core';
import { validPushConfigQuery } from './schema';

export interface GetPushConfigHandlerPorts extends BrowserPorts {
  apps: Pick<AppStore, 'get'>;
}

export function makeGetPushConfigHandler(ports: GetPushConfigHandlerPorts) {
  const read = getPushConfig(ports.apps);
  return queryApi({ scopes: ['browser'], validate: validPushConfigQuery, keys: ports.keys, origins: ports.origins }).handler(async (event, context) =>
    json(200, await read(context.principal.appId, event.queryStringParameters.app_id)),
  );
}
