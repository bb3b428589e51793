import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoEnterpriseUserStore } from '../shared/adapters/dynamo-enterprise-user-store';
import { DynamoSignInTokenStore } from '../shared/adapters/dynamo-sign-in-token-store';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { newSecret } from '../shared/domain/enterprise';
import { jsonApi } from '../shared/http/json-api';
import { json } from '../shared/http/response';
import { logger } from '../shared/logger';
import { signInEnterpriseUser } from './core';
import { validSignInBody } from './schema';

const signIn = signInEnterpriseUser({
  users: new DynamoEnterpriseUserStore(dynamo, requireEnv(tables.enterpriseUsers.envVar)),
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  tokens: new DynamoSignInTokenStore(dynamo, requireEnv(tables.signInTokens.envVar)),
  newToken: newSecret,
  now: () => new Date(),
});

export const handler = jsonApi({
  scopes: ['server'],
  validate: validSignInBody,
}).handler(async (event, context) => {
  const answer = await signIn(context.principal.appId, event.body);
  logger.info('Sign-in token issued', { app_id: context.principal.appId, user_id: event.body.user_id });
  return json(200, answer, { 'Cache-Control': 'no-store' });
});
