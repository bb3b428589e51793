/** POST /api/set_affiliate, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { IngestDeps } from '../../domain/ingest';
import { jsonApi, type KeyPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { setAffiliate } from './core';
import { validSetAffiliate } from './schema';

export type SetAffiliateHandlerPorts = KeyPorts & IngestDeps;

export function makeSetAffiliateHandler(ports: SetAffiliateHandlerPorts) {
  const attribute = setAffiliate(ports);
  return jsonApi({ scopes: ['server'], validate: validSetAffiliate, keys: ports.keys }).handler(async (event, context) => {
    const answer = await attribute(event.body, context.principal.appId);
    logger.info('Affiliate set', { app_id: context.principal.appId, message_id: answer.message_id });
    return json(200, answer);
  });
}
