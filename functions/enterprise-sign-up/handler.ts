import { tables } from '../shared/manifest/resources';
import { DynamoEnterpriseUserStore } from '../shared/adapters/dynamo-enterprise-user-store';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { newUserId } from '../shared/domain/enterprise';
import { jsonApi } from '../shared/http/json-api';
import { json } from '../shared/http/response';
import { logger } from '../shared/logger';
import { signUpEnterpriseUsers } from './core';
import { validSignUpBody } from './schema';

const signUp = signUpEnterpriseUsers({
  users: new DynamoEnterpriseUserStore(dynamo, requireEnv(tables.enterpriseUsers.envVar)),
  newUserId,
  now: () => new Date(),
});

export const handler = jsonApi({
  scopes: ['server'],
  validate: validSignUpBody,
}).handler(async (event, context) => {
  const answer = await signUp(context.principal.appId, event.body);
  logger.info('Enterprise users signed up', {
    app_id: context.principal.appId,
    users: answer.users.length,
    created: answer.users.filter((user) => user.created).length,
  });
  return json(200, answer);
});
