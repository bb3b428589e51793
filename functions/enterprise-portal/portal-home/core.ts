/** GET /portal: who is signed in, from the session cookie. */
import type { AppStore } from '../../domain/apps';
import {
  hashSecret,
  SECRET_PATTERN,
  sessionIsLive,
  shouldTouchSession,
  type Clock,
  type EnterpriseUser,
  type EnterpriseUserStore,
  type SessionStore,
} from '../../domain/enterprise';

export interface PortalHomePorts {
  sessions: Pick<SessionStore, 'get' | 'touch'>;
  users: Pick<EnterpriseUserStore, 'get'>;
  apps: Pick<AppStore, 'get'>;
  now: Clock;
}

export type PortalHome = { signedIn: true; user: EnterpriseUser; appName?: string } | { signedIn: false };

export function showPortalHome(ports: PortalHomePorts) {
  return async (sessionId: string | undefined): Promise<PortalHome> => {
    if (!sessionId || !SECRET_PATTERN.test(sessionId)) return { signedIn: false };
    const now = ports.now();
    const session = await ports.sessions.get(hashSecret(sessionId));
    // DynamoDB's TTL sweeps late; the expiry (idle and absolute) is enforced here.
    if (!session || !sessionIsLive(session, now)) return { signedIn: false };
    const [user, app] = await Promise.all([ports.users.get(session.app_id, session.user_id), ports.apps.get(session.app_id)]);
    if (!user) return { signedIn: false };
    // A page view is a use: it keeps the session from going idle (a write at most once a minute).
    if (shouldTouchSession(session, now)) await ports.sessions.touch(session.session_hash, now);
    return { signedIn: true, user, appName: app?.name };
  };
}
