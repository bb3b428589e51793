/**
 * Who is signed in to an application's portal: the session the cookie names,
 * if it belongs to this application, is neither idle nor past its absolute
 * end, and its affiliate is still approved. Each use moves `last_seen`.
 */
import { sessionState, shouldTouch, statusOf, type AffiliateAccounts, type AffiliateSession, type AffiliateSessionStore } from '../domain/affiliate-portal';
import type { AffiliateRecord } from '../domain/affiliates';
import { hashSecret, SECRET_PATTERN, type Clock } from '../domain/enterprise';

export interface SessionPorts {
  sessions: Pick<AffiliateSessionStore, 'get' | 'touch'>;
  affiliates: Pick<AffiliateAccounts, 'get'>;
  now: Clock;
}

export type CurrentAffiliate = { signedIn: true; sessionId: string; session: AffiliateSession; affiliate: AffiliateRecord } | { signedIn: false };

export function currentAffiliate(ports: SessionPorts) {
  return async (appId: string, sessionId: string | undefined): Promise<CurrentAffiliate> => {
    if (!sessionId || !SECRET_PATTERN.test(sessionId)) return { signedIn: false };
    const now = ports.now();
    const session = await ports.sessions.get(hashSecret(sessionId));
    // DynamoDB's TTL sweeps late; the expiry is enforced here.
    if (!session || session.app_id !== appId || sessionState(session, now) !== 'live') return { signedIn: false };
    const affiliate = await ports.affiliates.get(appId, session.affiliate_id);
    // A suspension takes effect on the next page, not at the next sign-in.
    if (!affiliate || statusOf(affiliate) !== 'approved') return { signedIn: false };
    if (shouldTouch(session, now)) await ports.sessions.touch(session.session_hash, now);
    return { signedIn: true, sessionId, session, affiliate };
  };
}
