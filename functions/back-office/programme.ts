/**
 * The programme view (GET /console/api/programme): every affiliate of the
 * application in one month, each computed by its own report (the report use
 * case as a black box, so the view earns exactly what the affiliate's page
 * and statement earn), with the month's totals, top affiliates and top
 * sub-ids.
 *
 * Cost, for A affiliates: ⌈A/100⌉ listing queries, one read of the plans and
 * one of the application, then per affiliate its month's day rows and first
 * deposits (2 queries), its earlier days when its plan carries RevShare over
 * (1), and, for an affiliate with activity, its link names and sub-id rows
 * (2). 1,000 affiliates: about 2,000 queries when few are active, 5,000 when
 * all are, run 16 at once; the view stops at programmeLimits.maxAffiliates.
 */
import pLimit from 'p-limit';
import { defaultCurrency, type Plan } from '../domain/affiliate-program';
import { statusOf, type AffiliateSummary } from '../domain/affiliates';
import { ValidationError } from '../domain/errors';
import {
  hasActivity,
  monthDays,
  monthPattern,
  programmeLimits,
  subIdMonths,
  topAffiliates,
  topSubIds,
  totalsOf,
  type Programme,
  type ProgrammeRow,
  type SubIdDayRow,
  type SubIdReader,
} from '../domain/programme';
import { affiliateReport, type ReportPorts } from './affiliate-report';
import type { BackOffice } from './ports';

export type ProgrammePorts = ReportPorts & {
  now: () => Date;
  affiliates: Pick<BackOffice['affiliates'], 'get' | 'page'>;
  plans: Pick<BackOffice['plans'], 'get' | 'list' | 'getVersion'>;
  subIds: SubIdReader;
};

const monthFormat = new RegExp(monthPattern);

/** The month asked for, or the current UTC month. */
export function programmeMonth(month: string | undefined, now: Date): string {
  if (month === undefined) return now.toISOString().slice(0, 7);
  if (!monthFormat.test(month)) throw new ValidationError(['month must be a month YYYY-MM'], 'request is invalid');
  return month;
}

/** The application's affiliates by id, up to the view's bound; whether more exist. */
async function affiliatesOf(office: Pick<ProgrammePorts, 'affiliates'>, appId: string): Promise<{ affiliates: AffiliateSummary[]; truncated: boolean }> {
  const affiliates: AffiliateSummary[] = [];
  let start: string | undefined;
  do {
    const page = await office.affiliates.page(appId, Math.min(100, programmeLimits.maxAffiliates - affiliates.length), start);
    affiliates.push(...page.affiliates);
    start = page.next;
  } while (start !== undefined && affiliates.length < programmeLimits.maxAffiliates);
  return { affiliates, truncated: start !== undefined };
}

/**
 * The report's ports, answering from what the view already read: the affiliate from the listing, the plans from
 * one list (a deal on an older version: one read per version), the application once. Everything else goes to the stores (a new port the report reads included).
 */
function readOnce(office: ProgrammePorts, app: ReturnType<ReportPorts['apps']['get']>, affiliates: AffiliateSummary[], plans: Plan[]): ReportPorts {
  const byId = new Map(affiliates.map((affiliate) => [affiliate.affiliate_id, affiliate]));
  const planById = new Map(plans.map((plan) => [plan.plan_id, plan]));
  const over = <T extends object>(store: T, methods: Partial<T>): T => Object.assign(Object.create(store) as T, methods);
  // A deal's plan version: the listed plan when it is that version, else one read per version for the whole view.
  const versions = new Map<string, Promise<Plan | undefined>>();
  const version = (appId: string, id: string, number: number) => {
    const listed = planById.get(id);
    if (listed && (listed.version ?? 1) === number) return Promise.resolve(listed);
    const key = `${id}#${number}`;
    if (!versions.has(key)) versions.set(key, office.plans.getVersion(appId, id, number));
    return versions.get(key)!;
  };
  return {
    ...office,
    apps: over(office.apps, { get: async (appId: string) => (appId === (await app)?.app_id ? app : office.apps.get(appId)) }),
    affiliates: over(office.affiliates, { get: async (appId: string, id: string) => byId.get(id) ?? office.affiliates.get(appId, id) }),
    plans: over(office.plans, { get: async (appId: string, id: string) => planById.get(id) ?? office.plans.get(appId, id), getVersion: version }),
  };
}

/** The programme in `month` (YYYY-MM; the current UTC month without one). */
export function programme(office: ProgrammePorts) {
  return async (appId: string, month: string | undefined): Promise<Programme> => {
    const shown = programmeMonth(month, office.now());
    const { from, to } = monthDays(shown);
    const reading = office.apps.get(appId);
    const [{ affiliates, truncated }, plans, app] = await Promise.all([affiliatesOf(office, appId), office.plans.list(appId), reading]);
    const ports = readOnce(office, reading, affiliates, plans);
    const report = affiliateReport(ports);
    const planNames = new Map(plans.map((plan) => [plan.plan_id, plan.name]));
    const limit = pLimit(programmeLimits.concurrency);
    const computed = await Promise.all(
      affiliates.map((affiliate) =>
        limit(async () => {
          const { totals, plan_id: planId } = await report(appId, affiliate.affiliate_id, from, to);
          const row: ProgrammeRow = {
            affiliate_id: affiliate.affiliate_id,
            username: affiliate.username,
            status: statusOf(affiliate),
            plan: planId ? { plan_id: planId, name: planNames.get(planId) ?? planId } : null,
            clicks: totals.clicks,
            registrations: totals.registrations,
            ftds: totals.ftds,
            qualified_ftds: totals.qualified_ftds,
            deposits: totals.deposits,
            ngr: totals.ngr,
            cpa: totals.cpa,
            revshare: totals.revshare,
            commission: totals.commission,
          };
          const subIds: SubIdDayRow[] = hasActivity(row) ? await office.subIds.subIdDays(appId, affiliate.affiliate_id, from, to) : [];
          return { row, subIds };
        }),
      ),
    );
    const rows = computed.map(({ row }) => row);
    const usernames = new Map(affiliates.map((affiliate) => [affiliate.affiliate_id, affiliate.username]));
    return {
      month: shown,
      from,
      to,
      currency: app?.currency ?? defaultCurrency,
      affiliates: rows,
      totals: totalsOf(rows),
      top: {
        ...topAffiliates(rows),
        sub_ids: topSubIds(
          subIdMonths(
            computed.flatMap(({ subIds }) => subIds),
            usernames,
          ),
        ),
      },
      truncated,
    };
  };
}
