/**
 * Signing in to an application's portal with username or email and password.
 * Failed attempts are counted per account (the login as typed) and per client
 * address; past the limit both are refused until their window ends, even
 * with the right password. The answer never says which of login or password
 * was wrong; an unknown login costs the same scrypt work as a known one.
 */
import {
  attemptKey,
  lockedUntil,
  portalLimits,
  statusOf,
  type AffiliateAccounts,
  type AffiliateSession,
  type AffiliateSessionStore,
  type SignInAttempts,
} from '../domain/affiliate-portal';
import { hashSecret, type Clock } from '../domain/enterprise';

export interface SignInPorts {
  affiliates: Pick<AffiliateAccounts, 'findByLogin'>;
  sessions: Pick<AffiliateSessionStore, 'put'>;
  attempts: SignInAttempts;
  verifyPassword: (password: string, stored: string) => Promise<boolean>;
  /** A hash of no one's password: what an unknown login is checked against. */
  decoyHash: string;
  newSessionId: () => string;
  now: Clock;
}

export interface SignInRequest {
  appId: string;
  login: string;
  password: string;
  clientIp: string;
  cookieSecure: boolean;
}

export type SignInOutcome =
  | { outcome: 'signed-in'; sessionId: string; session: AffiliateSession }
  | { outcome: 'invalid' }
  | { outcome: 'locked'; until: Date }
  | { outcome: 'pending' | 'suspended' };

export function signInToPortal(ports: SignInPorts) {
  return async (request: SignInRequest): Promise<SignInOutcome> => {
    const login = request.login.trim();
    if (!login || login.length > portalLimits.loginLength || !request.password || request.password.length > portalLimits.passwordMaxLength) {
      return { outcome: 'invalid' };
    }
    const now = ports.now();
    const accountKey = attemptKey({ kind: 'account', appId: request.appId, login });
    const clientKey = attemptKey({ kind: 'client', appId: request.appId, ip: request.clientIp });
    const [account, client] = await ports.attempts.current([accountKey, clientKey], now);
    const locked = lockedUntil(account, client);
    if (locked) return { outcome: 'locked', until: locked };

    const affiliate = await ports.affiliates.findByLogin(request.appId, login);
    const passwordOk = await ports.verifyPassword(request.password, affiliate?.password_hash ?? ports.decoyHash);
    if (!affiliate || !passwordOk) {
      const counted = await Promise.all([
        ports.attempts.recordFailure(accountKey, now, portalLimits.attemptWindowMs),
        ports.attempts.recordFailure(clientKey, now, portalLimits.attemptWindowMs),
      ]);
      const lockedNow = lockedUntil(...counted);
      return lockedNow ? { outcome: 'locked', until: lockedNow } : { outcome: 'invalid' };
    }

    await ports.attempts.clear(accountKey);
    const status = statusOf(affiliate);
    if (status !== 'approved') return { outcome: status };
    const sessionId = ports.newSessionId();
    const session: AffiliateSession = {
      session_hash: hashSecret(sessionId),
      app_id: request.appId,
      affiliate_id: affiliate.affiliate_id,
      created_at: now.toISOString(),
      last_seen: now.toISOString(),
      cookie_secure: request.cookieSecure,
    };
    await ports.sessions.put(session);
    return { outcome: 'signed-in', sessionId, session };
  };
}
