/** POST /api/register_affiliate, made from its ports: handler.ts passes the container's, a test its fakes. */
import { jsonApi, type KeyPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { registerAffiliate, type RegisterAffiliateDeps } from '../../back-office/affiliate-registration';
import { validRegistration } from '../../back-office/affiliate-registration-schema';

export type RegisterAffiliateHandlerPorts = KeyPorts & Omit<RegisterAffiliateDeps, 'log'>;

export function makeRegisterAffiliateHandler(ports: RegisterAffiliateHandlerPorts) {
  const register = registerAffiliate({ ...ports, log: logger });
  return jsonApi({ scopes: ['server'], validate: validRegistration, errors: { style: 'errors' }, keys: ports.keys }).handler(async (event, context) => {
    const registration = await register(event.body, context.principal.appId);
    logger.info('Affiliate registered', { app_id: context.principal.appId, affiliate_id: registration.affiliate_id });
    return json(200, registration);
  });
}
