import { tables } from '../shared/manifest/resources';
import { DynamoAffiliateStore } from '../shared/adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { newAffiliateId } from '../shared/domain/affiliates';
import { hashPassword } from '../shared/domain/passwords';
import { jsonApi } from '../shared/http/json-api';
import { requestOrigin } from '../shared/http/request-origin';
import { json } from '../shared/http/response';
import { logger } from '../shared/logger';
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
  const registration = await register(event.body, context.principal.appId, requestOrigin(event));
  logger.info('Affiliate registered', { app_id: context.principal.appId, affiliate_id: registration.affiliate_id });
  return json(200, registration);
});
