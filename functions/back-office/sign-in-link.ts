/**
 * A one-time sign-in link for an enterprise user: a random token, stored only
 * as its hash, valid 5 minutes, and the portal's `/redirect` address that
 * carries it. Issued by POST /enterprises/sign_in and by the admin command
 * line (`portal link`), so both go through the same machinery.
 */
import { enterpriseLimits, hashSecret, type Clock, type EnterpriseUser, type SignInTokenStore } from '../domain/enterprise';

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
    const issuedAt = ports.now();
    const expiresAt = new Date(issuedAt.getTime() + enterpriseLimits.tokenLifetimeMs).toISOString();
    await ports.tokens.put({
      token_hash: hashSecret(token),
      app_id: user.app_id,
      user_id: user.user_id,
      created_at: issuedAt.toISOString(),
      expires_at: expiresAt,
    });
    const redirectUrl = new URL('/redirect', portalOrigin);
    redirectUrl.searchParams.set('token', token);
    return { token, redirect_url: redirectUrl.href, expires_at: expiresAt };
  };
}
