import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Session } from './api';

export const SessionContext = createContext<Session | undefined>(undefined);

/** The signed-in session: pages are only rendered inside the layout, which provides it. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside the console layout');
  return session;
}
