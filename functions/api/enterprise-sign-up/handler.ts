import { tables } from '../../manifest/resources';
import { DynamoEnterpriseUserStore } from '../../adapters/dynamo-enterprise-user-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { newUserId } from '../../domain/enterprise';
import { jsonApi } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
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
