/**
 * GET /redirect?token=…: the token is the credential. It is consumed in one
 * conditional write (of two concurrent uses, one wins) and, if it was good,
 * a portal session starts.
 */
import type { AppStore } from '../domain/apps';
import {
  cookieSecureFor,
  enterpriseLimits,
  hashSecret,
  SECRET_PATTERN,
  type Clock,
  type PortalSession,
  type SessionStore,
  type SignInTokenStore,
} from '../domain/enterprise';

export interface RedirectPorts {
  tokens: Pick<SignInTokenStore, 'consume'>;
  sessions: Pick<SessionStore, 'put'>;
  apps: Pick<AppStore, 'get'>;
  newSessionId: () => string;
  now: Clock;
}

export type RedirectOutcome = { outcome: 'signed-in'; sessionId: string; session: PortalSession } | { outcome: 'used' | 'expired' | 'unknown' };

export function redirectIntoPortal(ports: RedirectPorts) {
  return async (token: string | undefined): Promise<RedirectOutcome> => {
    // Not the shape of a token: no need to ask the table.
    if (!token || !SECRET_PATTERN.test(token)) return { outcome: 'unknown' };
    const now = ports.now();
    const consumption = await ports.tokens.consume(hashSecret(token), now);
    if (consumption.outcome !== 'consumed') return { outcome: consumption.outcome };

    const { app_id: appId, user_id: userId } = consumption.token;
    const app = await ports.apps.get(appId);
    const sessionId = ports.newSessionId();
    const session: PortalSession = {
      session_hash: hashSecret(sessionId),
      app_id: appId,
      user_id: userId,
      created_at: now.toISOString(),
      last_seen: now.toISOString(),
      expires_at: new Date(now.getTime() + enterpriseLimits.sessionLifetimeMs).toISOString(),
      // Without a portal origin (it cannot be unset once set) Secure is the safe side.
      cookie_secure: app?.portal_origin ? cookieSecureFor(app.portal_origin) : true,
    };
    await ports.sessions.put(session);
    return { outcome: 'signed-in', sessionId, session };
  };
}
