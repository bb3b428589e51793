/**
 * The signed-in affiliate's report for a period: what the dashboard shows and
 * the CSV holds. Only ever the session's own affiliate in the session's own
 * application: nothing in the request names whose figures they are.
 */
import { h } from 'preact';
import { periodOf, type AffiliateReportSource, type Period } from '../domain/affiliate-portal';
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

/**
 * The period the query asks for (default: this month; a longer or invalid one is changed, and `adjusted` says so) and its report;
 * with `withPrevious`, also the totals of the period just before, read alongside.
 */
export function affiliateDashboard(ports: DashboardPorts) {
  return async ({ event, appId, affiliate }: Pick<SignedInVisit, 'event' | 'appId' | 'affiliate'>, options: { withPrevious?: boolean } = {}) => {
    const query = event.queryStringParameters ?? {};
    const { period, adjusted } = periodOf({ from: query.from, to: query.to }, ports.now());
    const before = previousPeriod(period);
    const [report, previous] = await Promise.all([
      ports.report(appId, affiliate.affiliate_id, period.from, period.to, { subIds: true }),
      // The comparison is a nicety: a dashboard without it beats no dashboard.
      options.withPrevious
        ? ports.report(appId, affiliate.affiliate_id, before.from, before.to).then(
            (earlier) => earlier.totals,
            () => undefined,
          )
        : undefined,
    ]);
    return { period, adjusted, report, previous };
  };
}

/** The period of equal length that ends the day before `period` starts: what each figure is compared with. */
export function previousPeriod(period: Period): Period {
  const day = 86_400_000;
  const from = Date.parse(`${period.from}T00:00:00Z`);
  const span = Date.parse(`${period.to}T00:00:00Z`) - from;
  const iso = (time: number) => new Date(time).toISOString().slice(0, 10);
  return { from: iso(from - day - span), to: iso(from - day) };
}

export function dashboardWork(ports: DashboardPorts): Pick<PortalWork, 'AffiliateDashboard' | 'AffiliateReportCsv'> {
  const dashboard = affiliateDashboard(ports);
  return {
    AffiliateDashboard: async (visit) => {
      const { period, adjusted, report, previous } = await dashboard(visit, { withPrevious: true });
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
          previous,
          today: ports.now().toISOString().slice(0, 10),
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
