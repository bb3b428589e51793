/** POST /portal/sign_out: ends the session the cookie names, if any. */
import { hashSecret, SECRET_PATTERN, type SessionStore } from '../../domain/enterprise';

export interface SignOutPorts {
  sessions: Pick<SessionStore, 'delete'>;
}

export interface SignOutResult {
  /** Whether a live session was ended. */
  ended: boolean;
  /**
   * The Secure attribute to clear the cookie with: the one it was set with.
   * Unknown session: none, which the browser accepts from any origin and which
   * clears a Secure cookie too when the request came over HTTPS.
   */
  cookieSecure: boolean;
}

export function signOutOfPortal(ports: SignOutPorts) {
  return async (sessionId: string | undefined): Promise<SignOutResult> => {
    if (!sessionId || !SECRET_PATTERN.test(sessionId)) return { ended: false, cookieSecure: false };
    const session = await ports.sessions.delete(hashSecret(sessionId));
    return { ended: session !== undefined, cookieSecure: session?.cookie_secure ?? false };
  };
}
