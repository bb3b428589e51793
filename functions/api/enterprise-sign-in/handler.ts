import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoEnterpriseUserStore } from '../../adapters/dynamo-enterprise-user-store';
import { DynamoSignInTokenStore } from '../../adapters/dynamo-sign-in-token-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { newSecret } from '../../domain/enterprise';
import { jsonApi } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
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
