/**
 * GET /redirect?token=…: the token is the credential. It is consumed in one
 * conditional write (of two concurrent uses, one wins) and, if it was good,
 * a console session starts.
 */
import type { AppStore } from '../domain/apps';
import type { Clock, PortalSession, SignInTokenStore } from '../domain/enterprise';
import type { TokenRefusal } from '../domain/one-time-tokens';
import { hashSecret, SECRET_PATTERN } from '../domain/secrets-random';
import { cookieSecureFor, sessionLimits, startedSession, type SessionStore } from '../domain/sessions';

export interface RedirectPorts {
  tokens: Pick<SignInTokenStore, 'consume'>;
  sessions: Pick<SessionStore<PortalSession>, 'put'>;
  apps: Pick<AppStore, 'get'>;
  newSessionId: () => string;
  now: Clock;
}

export type RedirectOutcome = { outcome: 'signed-in'; sessionId: string; session: PortalSession } | { outcome: TokenRefusal };

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
      // Without a portal origin (it cannot be unset once set) Secure is the safe side.
      ...startedSession(sessionId, appId, now, app?.portal_origin ? cookieSecureFor(app.portal_origin) : true),
      user_id: userId,
      expires_at: new Date(now.getTime() + sessionLimits.lifetimeMs).toISOString(),
    };
    await ports.sessions.put(session);
    return { outcome: 'signed-in', sessionId, session };
  };
}
