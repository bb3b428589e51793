/**
 * Issues a one-time sign-in token for an enterprise user and the portal
 * address that carries it. Only the token's hash is stored.
 */
import type { AppStore } from '../shared/domain/apps';
import {
  enterpriseLimits,
  hashSecret,
  type Clock,
  type EnterpriseUserStore,
  type SignInTokenStore,
} from '../shared/domain/enterprise';
import { Conflict, Forbidden, NotFound } from '../shared/domain/errors';
import type { SignInAnswer, SignInBody } from './schema';

export interface SignInPorts {
  users: Pick<EnterpriseUserStore, 'get'>;
  apps: Pick<AppStore, 'get'>;
  tokens: Pick<SignInTokenStore, 'put'>;
  newToken: () => string;
  now: Clock;
}

export function signInEnterpriseUser(ports: SignInPorts) {
  return async (callerAppId: string, body: SignInBody): Promise<SignInAnswer> => {
    if (body.app_id !== callerAppId) throw new Forbidden();
    // Keyed by application: another application's user is not found here.
    const user = await ports.users.get(body.app_id, body.user_id);
    if (!user) throw new NotFound('user not found');
    const app = await ports.apps.get(body.app_id);
    // Checked before a token exists: never an answer with an address that leads nowhere.
    if (!app?.portal_origin) throw new Conflict('the application has no portal origin configured; ask your account manager to set it');

    const token = ports.newToken();
    const issuedAt = ports.now();
    const expiresAt = new Date(issuedAt.getTime() + enterpriseLimits.tokenLifetimeMs).toISOString();
    await ports.tokens.put({
      token_hash: hashSecret(token),
      app_id: user.app_id,
      user_id: user.user_id,
      created_at: issuedAt.toISOString(),
      expires_at: expiresAt,
    });
    const redirectUrl = new URL('/redirect', app.portal_origin);
    redirectUrl.searchParams.set('token', token);
    return { token, redirect_url: redirectUrl.href, expires_at: expiresAt };
  };
}
