/** POST /enterprises/sign_in, made from its ports: handler.ts passes the container's, a test its fakes. */
import { jsonApi, type KeyPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { signInEnterpriseUser, type SignInPorts } from './core';
import { validSignInBody } from './schema';

export type EnterpriseSignInHandlerPorts = KeyPorts & SignInPorts;

export function makeEnterpriseSignInHandler(ports: EnterpriseSignInHandlerPorts) {
  const signIn = signInEnterpriseUser(ports);
  return jsonApi({ scopes: ['server'], validate: validSignInBody, keys: ports.keys }).handler(async (event, context) => {
    const answer = await signIn(context.principal.appId, event.body);
    logger.info('Sign-in token issued', { app_id: context.principal.appId, user_id: event.body.user_id });
    return json(200, answer, { 'Cache-Control': 'no-store' });
  });
}
