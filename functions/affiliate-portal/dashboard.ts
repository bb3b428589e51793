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
import type { AffiliateSummary } from '../domain/affiliates';
import type { DealPlan } from '../domain/commission';
import { describeDeal } from '../domain/plans';
import { DashboardPage, type DealLines } from './pages/dashboard';
import { page, portalSecurityHeaders } from './render';

export interface DashboardPorts {
  /** The operator's report (GET /api/affiliates/{affiliate_id}/report): one computation behind both. */
  report: AffiliateReportSource;
  /** The affiliate's deals with their plan versions (back-office/deals.ts). */
  deals: (affiliate: AffiliateSummary) => Promise<DealPlan[]>;
  now: () => Date;
}

/** The deal in force today and the next one scheduled, in the affiliate's words. */
export function dealLines(deals: DealPlan[], today: string, currency: string): DealLines {
  const words = (entry: DealPlan | undefined) => (entry?.plan ? describeDeal(entry.plan, currency) : undefined);
  const current = [...deals].reverse().find((entry) => entry.deal.from <= today);
  const upcoming = deals.find((entry) => entry.deal.from > today);
  return {
    current: words(current),
    ...(upcoming && words(upcoming) ? { upcoming: { from: upcoming.deal.from, terms: words(upcoming)! } } : {}),
  };
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
      const { affiliate } = visit;
      const [{ period, adjusted, report, previous }, deals] = await Promise.all([dashboard(visit, { withPrevious: true }), ports.deals(affiliate)]);
      const today = ports.now().toISOString().slice(0, 10);
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
          today,
          deal: dealLines(deals, today, report.currency),
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
