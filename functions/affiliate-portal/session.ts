/**
 * Who is signed in to an application's portal: the session the cookie names
 * (currentSession), if it belongs to this application and is live, and its
 * affiliate, if still approved. Each use moves `last_seen`.
 */
import { statusOf, type AffiliateAccounts, type AffiliateSession, type AffiliateSessionStore } from '../domain/affiliate-portal';
import type { AffiliateRecord } from '../domain/affiliates';
import type { Clock } from '../domain/enterprise';
import { currentSession } from '../domain/sessions';

export interface SessionPorts {
  sessions: Pick<AffiliateSessionStore, 'get' | 'touch'>;
  affiliates: Pick<AffiliateAccounts, 'get'>;
  now: Clock;
}

export type CurrentAffiliate = { signedIn: true; sessionId: string; session: AffiliateSession; affiliate: AffiliateRecord } | { signedIn: false };

export function currentAffiliate(ports: SessionPorts) {
  const current = currentSession(ports, async (session: AffiliateSession) => {
    const affiliate = await ports.affiliates.get(session.app_id, session.affiliate_id);
    // A suspension takes effect on the next page, not at the next sign-in.
    return affiliate && statusOf(affiliate) === 'approved' ? affiliate : undefined;
  });
  return async (appId: string, sessionId: string | undefined): Promise<CurrentAffiliate> => {
    const found = await current(sessionId, appId);
    return found ? { signedIn: true, sessionId: found.sessionId, session: found.session, affiliate: found.principal } : { signedIn: false };
  };
}
