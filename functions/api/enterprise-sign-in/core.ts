/**
 * Issues a one-time sign-in token for an enterprise user and the portal
 * address that carries it. Only the token's hash is stored.
 */
import type { AppStore } from '../../domain/apps';
import type { Clock, EnterpriseUserStore, SignInTokenStore } from '../../domain/enterprise';
import { issueSignInLink } from '../../back-office/sign-in-link';
import { Conflict, Forbidden, NotFound } from '../../domain/errors';
import type { SignInAnswer, SignInBody } from './schema';

export interface SignInPorts {
  users: Pick<EnterpriseUserStore, 'get'>;
  apps: Pick<AppStore, 'get'>;
  tokens: Pick<SignInTokenStore, 'put'>;
  newToken: () => string;
  now: Clock;
}

export function signInEnterpriseUser(ports: SignInPorts) {
  const issue = issueSignInLink(ports);
  return async (callerAppId: string, body: SignInBody): Promise<SignInAnswer> => {
    if (body.app_id !== callerAppId) throw new Forbidden();
    // Keyed by application: another application's user is not found here.
    const user = await ports.users.get(body.app_id, body.user_id);
    if (!user) throw new NotFound('user not found');
    const app = await ports.apps.get(body.app_id);
    // Checked before a token exists: never an answer with an address that leads nowhere.
    if (!app?.portal_origin) throw new Conflict('the application has no portal origin configured; ask your account manager to set it');

    return issue(user, app.portal_origin);
  };
}
