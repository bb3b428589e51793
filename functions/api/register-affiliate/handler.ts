import { tables } from '../../manifest/resources';
import { DynamoAffiliateStore } from '../../adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { newAffiliateId } from '../../domain/affiliates';
import { hashPassword } from '../../domain/passwords';
import { jsonApi } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { registerAffiliate } from './core';
import { validRegistration } from './schema';

const register = registerAffiliate({
  affiliates: new DynamoAffiliateStore(dynamo, requireEnv(tables.affiliates.envVar)),
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  hashPassword: (password) => hashPassword(password),
  newId: newAffiliateId,
  now: () => new Date(),
  log: logger,
});

export const handler = jsonApi({
  scopes: ['server'],
  validate: validRegistration,
  errors: { style: 'errors' },
}).handler(async (event, context) => {
  const registration = await register(event.body, context.principal.appId);
  logger.info('Affiliate registered', { app_id: context.principal.appId, affiliate_id: registration.affiliate_id });
  return json(200, registration);
});
