/** GET /console/api/session: who is signed in, in which application, with which role, and the session's CSRF token. */
import type { AppStore } from '../../domain/apps';
import { consoleCsrfToken, type EnterpriseUserStore } from '../../domain/enterprise';
import { NotFound } from '../../domain/errors';
import type { ConsoleIdentity } from '../../http/console-auth';
import type { SessionAnswer } from './schema';

export interface SessionPorts {
  users: Pick<EnterpriseUserStore, 'get'>;
  apps: Pick<AppStore, 'get'>;
}

export function describeSession(ports: SessionPorts) {
  return async (identity: ConsoleIdentity, sessionId: string, expiresAt: string): Promise<SessionAnswer> => {
    const [user, app] = await Promise.all([ports.users.get(identity.appId, identity.userId), ports.apps.get(identity.appId)]);
    // The middleware found the user a moment ago; gone since, it is gone.
    if (!user) throw new NotFound('user not found');
    return {
      user: { user_id: user.user_id, email: user.email, first_name: user.first_name, last_name: user.last_name },
      app: { app_id: identity.appId, name: app?.name ?? identity.appId },
      role: identity.role,
      csrf_token: consoleCsrfToken(sessionId),
      expires_at: expiresAt,
    };
  };
}
