/** The session, users and audit routes (users/routes.ts), made from their ports. */
import { readAudit } from '../../back-office/audit';
import type { BackOffice } from '../../back-office/ports';
import { changeUserRole, listUsers } from '../../back-office/users';
import type { AppStore } from '../../domain/apps';
import type { PortalSession } from '../../domain/enterprise';
import { NotFound } from '../../domain/errors';
import { consoleCsrf, type SessionStore } from '../../domain/sessions';
import { consoleActor } from '../../http/console-auth';
import { consoleSessionCookie, signOut } from '../../http/session-cookie';
import { logger } from '../../runtime/logger';
import { answer, type Implementations } from '../route';
import type { routes } from './routes';
import type { SessionAnswer } from './schemas';

export type UsersPorts = Pick<BackOffice, 'users' | 'audit' | 'now'> & {
  apps: Pick<AppStore, 'get'>;
  /** Sign-out ends the session server-side. */
  sessions: Pick<SessionStore<PortalSession>, 'delete'>;
};

export function usersHandlers(ports: UsersPorts) {
  const list = listUsers(ports);
  const change = changeUserRole(ports);
  const read = readAudit(ports);
  return {
    // Who is signed in, in which application, with which role, and the session's CSRF token.
    ConsoleSession: async ({ identity, session }) => {
      const [user, app] = await Promise.all([ports.users.get(identity.appId, identity.userId), ports.apps.get(identity.appId)]);
      // The middleware found the user a moment ago; gone since, it is gone.
      if (!user) throw new NotFound('user not found');
      return answer(200, {
        user: { user_id: user.user_id, email: user.email, first_name: user.first_name, last_name: user.last_name },
        app: { app_id: identity.appId, name: app?.name ?? identity.appId },
        role: identity.role,
        csrf_token: consoleCsrf.tokenFor(session.sessionId),
        expires_at: session.session.expires_at,
      } satisfies SessionAnswer);
    },

    // The session ends server-side; the cookie is cleared with the attributes it was set with.
    ConsoleSignOut: async ({ identity, session }) => {
      const { clearCookie } = await signOut(ports.sessions, session.sessionId, consoleSessionCookie, session.session);
      logger.info('Console sign-out', { app_id: identity.appId, user_id: identity.userId });
      return answer(200, { message: 'signed out' }, { 'Set-Cookie': clearCookie });
    },

    ConsoleListUsers: async ({ identity, query }) => {
      const page = await list(identity.appId, { limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor });
      return answer(200, { users: page.users, next_cursor: page.cursor ?? null });
    },

    ConsoleChangeRole: async ({ identity, path, body }) =>
      answer(200, { user: await change(identity.appId, consoleActor(identity), path.user_id ?? '', body.role) }),

    ConsoleAudit: async ({ identity, query }) => {
      const page = await read(identity.appId, { limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor });
      return answer(200, { entries: page.entries, next_cursor: page.cursor ?? null });
    },
  } satisfies Implementations<typeof routes>;
}
