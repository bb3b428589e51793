/**
 * The signed-in affiliate's report for a period: what the dashboard shows and
 * the CSV holds. Only ever the session's own affiliate in the session's own
 * application: nothing in the request names whose figures they are.
 */
import { csrfTokenFor, periodOf, type AffiliateReportSource, type Period } from '../domain/affiliate-portal';
import type { AffiliateReport } from '../domain/affiliate-program';
import type { AffiliateRecord } from '../domain/affiliates';
import type { CurrentAffiliate } from './session';

export interface DashboardPorts {
  current: (appId: string, sessionId: string | undefined) => Promise<CurrentAffiliate>;
  report: AffiliateReportSource;
  now: () => Date;
}

export type Dashboard =
  | { signedIn: false; hadSession: boolean }
  | { signedIn: true; affiliate: AffiliateRecord; csrf: string; period: Period; adjusted: boolean; report: AffiliateReport };

export function affiliateDashboard(ports: DashboardPorts) {
  return async (appId: string, sessionId: string | undefined, query: { from?: string; to?: string }): Promise<Dashboard> => {
    const current = await ports.current(appId, sessionId);
    if (!current.signedIn) return { signedIn: false, hadSession: sessionId !== undefined };
    const { period, adjusted } = periodOf(query, ports.now());
    const report = await ports.report(appId, current.affiliate.affiliate_id, period.from, period.to);
    return { signedIn: true, affiliate: current.affiliate, csrf: csrfTokenFor(current.sessionId), period, adjusted, report };
  };
}
