/** POST /enterprises/sign_up, made from its ports: handler.ts passes the container's, a test its fakes. */
import { jsonApi, type KeyPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { signUpEnterpriseUsers, type SignUpPorts } from './core';
import { validSignUpBody } from './schema';

export type EnterpriseSignUpHandlerPorts = KeyPorts & SignUpPorts;

export function makeEnterpriseSignUpHandler(ports: EnterpriseSignUpHandlerPorts) {
  const signUp = signUpEnterpriseUsers(ports);
  return jsonApi({ scopes: ['server'], validate: validSignUpBody, keys: ports.keys }).handler(async (event, context) => {
    const answer = await signUp(context.principal.appId, event.body);
    logger.info('Enterprise users signed up', {
      app_id: context.principal.appId,
      users: answer.users.length,
      created: answer.users.filter((user) => user.created).length,
    });
    return json(200, answer);
  });
}
