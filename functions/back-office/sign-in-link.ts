/**
 * A one-time sign-in link for an enterprise user: a random token, stored only
 * as its hash, valid 5 minutes, and the portal's `/redirect` address that
 * carries it. Issued by POST /enterprises/sign_in and by the admin command
 * line (`portal link`), so both go through the same machinery.
 */
import { enterpriseLimits, type Clock, type EnterpriseUser, type SignInTokenStore } from '../domain/enterprise';
import { issuedToken } from '../domain/one-time-tokens';

export interface SignInLinkPorts {
  tokens: Pick<SignInTokenStore, 'put'>;
  newToken: () => string;
  now: Clock;
}

export interface SignInLink {
  token: string;
  redirect_url: string;
  expires_at: string;
}

export function issueSignInLink(ports: SignInLinkPorts) {
  return async (user: Pick<EnterpriseUser, 'app_id' | 'user_id'>, portalOrigin: string): Promise<SignInLink> => {
    const token = ports.newToken();
    const issued = issuedToken(token, ports.now(), enterpriseLimits.tokenLifetimeMs);
    await ports.tokens.put({ ...issued, app_id: user.app_id, user_id: user.user_id });
    const redirectUrl = new URL('/redirect', portalOrigin);
    redirectUrl.searchParams.set('token', token);
    return { token, redirect_url: redirectUrl.href, expires_at: issued.expires_at };
  };
}
