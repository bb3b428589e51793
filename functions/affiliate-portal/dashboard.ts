/**
 * The signed-in affiliate's report for a period: what the dashboard shows and
 * the CSV holds. Only ever the session's own affiliate in the session's own
 * application: nothing in the request names whose figures they are.
 */
import { h } from 'preact';
import { periodOf, type AffiliateReportSource } from '../domain/affiliate-portal';
import { portalCsrf } from '../domain/sessions';
import { csvFileName, reportCsv } from '../back-office/affiliate-report-csv';
import type { SignedInVisit, PortalWork } from './checks';
import { DashboardPage } from './pages/dashboard';
import { page, portalSecurityHeaders } from './render';

export interface DashboardPorts {
  /** The operator's report (GET /api/affiliates/{affiliate_id}/report): one computation behind both. */
  report: AffiliateReportSource;
  now: () => Date;
}

/** The period the query asks for (default: this month; a longer or invalid one is changed, and `adjusted` says so) and its report. */
export function affiliateDashboard(ports: DashboardPorts) {
  return async ({ event, appId, affiliate }: Pick<SignedInVisit, 'event' | 'appId' | 'affiliate'>) => {
    const query = event.queryStringParameters ?? {};
    const { period, adjusted } = periodOf({ from: query.from, to: query.to }, ports.now());
    return { period, adjusted, report: await ports.report(appId, affiliate.affiliate_id, period.from, period.to) };
  };
}

export function dashboardWork(ports: DashboardPorts): Pick<PortalWork, 'AffiliateDashboard' | 'AffiliateReportCsv'> {
  const dashboard = affiliateDashboard(ports);
  return {
    AffiliateDashboard: async (visit) => {
      const { period, adjusted, report } = await dashboard(visit);
      const { affiliate } = visit;
      return page(
        200,
        h(DashboardPage, {
          appName: visit.app.name,
          name: `${affiliate.first_name} ${affiliate.last_name}`,
          csrf: portalCsrf.tokenFor(visit.sessionId),
          period,
          adjusted,
          report,
        }),
      );
    },

    // The dashboard's report as a CSV download.
    AffiliateReportCsv: async (visit) => {
      const { report } = await dashboard(visit);
      return {
        statusCode: 200,
        headers: {
          ...portalSecurityHeaders,
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="${csvFileName(report)}"`,
        },
        body: reportCsv(report),
      };
    },
  };
}
