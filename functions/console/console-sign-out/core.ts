/** POST /console/api/sign_out: ends the session server-side; the cookie is cleared with the attributes it was set with. */
import type { SessionStore } from '../../domain/enterprise';

export function signOutOfConsole(ports: { sessions: Pick<SessionStore, 'delete'> }) {
  return async (sessionHash: string): Promise<void> => {
    await ports.sessions.delete(sessionHash);
  };
}
