/**
 * Commission and the affiliate report, from the funnel's day rows and first
 * deposits (docs/api.md, "How commission is computed"). Pure: exact decimals
 * (decimal.js), two decimals per row rounded half away from zero
 * (ROUND_HALF_UP), totals of CPA and RevShare the sums of the rounded rows.
 *
 * - A day's CPA: its qualified FTDs (first deposits of at least the plan's
 *   `min_deposit`) × the plan's `amount`.
 * - A day's RevShare: round2(percent / 100 × the day's NGR); negative when
 *   the players won.
 * - RevShare is paid per calendar month: max(0, the month's days + carried_in);
 *   with carry-over a negative month is carried into the next one. A month the
 *   range cuts is settled on its days within the range; what it carries in is
 *   what the months before it carried out (`carriedInto`).
 * - Deals: each day earns under the plan version in force that day, a month
 *   settles with the carry-over rule of the deal on its last day in the range.
 */
import DecimalJs from 'decimal.js';
import type { AffiliateReport, FtdRow, FunnelDayRow, FunnelFigures, Plan, RevShareMonth, SubIdDayRow } from './affiliate-program';
import { dealOn, periodsWithin, type Deal } from './deals';
import { noSubId, subIdBucket } from './funnel';
import { describePlan } from './plans';

const Decimal = DecimalJs.clone({ precision: 60, rounding: DecimalJs.ROUND_HALF_UP });
type Decimal = InstanceType<typeof Decimal>;

const zero = () => new Decimal(0);
const round2 = (value: Decimal) => value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const money = (value: Decimal) => value.toFixed(2, Decimal.ROUND_HALF_UP);
const sum = (values: Decimal[]) => values.reduce((total, value) => total.plus(value), zero());

/** NGR of a day row: bets − wins − bonuses. */
export function ngrOf(row: Pick<FunnelDayRow, 'bets' | 'wins' | 'bonuses'>): Decimal {
  return new Decimal(row.bets).minus(row.wins).minus(row.bonuses);
}

/** A first deposit qualifies for CPA when it reaches the plan's minimum (without CPA, every one does). */
export function qualifies(plan: Pick<Plan, 'cpa'> | undefined, ftd: Pick<FtdRow, 'amount'>): boolean {
  return new Decimal(ftd.amount).gte(plan?.cpa?.min_deposit ?? 0);
}

/** The RevShare of an NGR, rounded to the cent. */
export function revshareOf(plan: Pick<Plan, 'revshare'> | undefined, ngr: Decimal): Decimal {
  return plan?.revshare ? round2(new Decimal(plan.revshare.percent).div(100).times(ngr)) : zero();
}

/** The days from `from` to `to`, both included (YYYY-MM-DD, UTC). */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = new Date(`${from}T00:00:00Z`); day.toISOString().slice(0, 10) <= to; day.setUTCDate(day.getUTCDate() + 1)) {
    days.push(day.toISOString().slice(0, 10));
  }
  return days;
}

/** The first day of `day`'s month. */
export const monthStart = (day: string) => `${day.slice(0, 7)}-01`;

export { dayBefore } from './deals';

interface Group {
  clicks: number;
  registrations: number;
  ftds: number;
  qualified: number;
  deposits: Decimal;
  withdrawals: Decimal;
  ngr: Decimal;
  /** Qualified FTDs × the amount of each one's day. */
  cpa: Decimal;
  /** Σ percent of each row's day × its NGR, unrounded: rounded once per row of the report. */
  revshare: Decimal;
}

const emptyGroup = (): Group => ({
  clicks: 0,
  registrations: 0,
  ftds: 0,
  qualified: 0,
  deposits: zero(),
  withdrawals: zero(),
  ngr: zero(),
  cpa: zero(),
  revshare: zero(),
});

/** The plan version in force on a day, or undefined (no deal yet: the day earns nothing). */
export type PlanOn = (day: string) => Plan | undefined;

/** A deal with the plan version it names (undefined when that version cannot be found: it earns nothing). */
export interface DealPlan {
  deal: Deal;
  plan: Plan | undefined;
}

/** The plan in force on each day, from deals oldest first. */
export function planOnOf(deals: DealPlan[]): PlanOn {
  const onDay = new Map<string, Plan | undefined>();
  return (day) => {
    if (!onDay.has(day)) {
      const deal = dealOn(
        deals.map((entry) => entry.deal),
        day,
      );
      onDay.set(day, deal && deals.find((entry) => entry.deal === deal)?.plan);
    }
    return onDay.get(day);
  };
}

/** One plan for every day: the report before deals, and a deal-less computation's shorthand. */
const always =
  (plan: Plan | undefined): PlanOn =>
  () =>
    plan;

function addRow(group: Group, row: FunnelDayRow, plan: Plan | undefined): void {
  group.clicks += row.clicks;
  group.registrations += row.registrations;
  group.ftds += row.ftds;
  group.deposits = group.deposits.plus(row.deposits);
  group.withdrawals = group.withdrawals.plus(row.withdrawals);
  group.ngr = group.ngr.plus(ngrOf(row));
  if (plan?.revshare) group.revshare = group.revshare.plus(new Decimal(plan.revshare.percent).div(100).times(ngrOf(row)));
}

function groupBy<D extends FunnelDayRow, F extends FtdRow>(days: D[], ftds: F[], planOn: PlanOn, key: (row: D | F) => string) {
  const groups = new Map<string, Group>();
  const groupOf = (k: string) => groups.get(k) ?? groups.set(k, emptyGroup()).get(k)!;
  for (const row of days) addRow(groupOf(key(row)), row, planOn(row.day));
  for (const ftd of ftds) {
    const plan = planOn(ftd.day);
    if (!qualifies(plan, ftd)) continue;
    const group = groupOf(key(ftd));
    group.qualified += 1;
    if (plan?.cpa) group.cpa = group.cpa.plus(plan.cpa.amount);
  }
  return groups;
}

/** Conversion rates, exact to 4 places (half up): registrations per click, FTDs per registration; null without a denominator. */
export function conversionRates(counts: Pick<FunnelFigures, 'clicks' | 'registrations' | 'ftds'>): Pick<FunnelFigures, 'registration_rate' | 'ftd_rate'> {
  const rate = (n: number, of: number) => (of === 0 ? null : new Decimal(n).div(of).toFixed(4, Decimal.ROUND_HALF_UP));
  return { registration_rate: rate(counts.registrations, counts.clicks), ftd_rate: rate(counts.ftds, counts.registrations) };
}

function figures(group: Group): FunnelFigures {
  const revshare = round2(group.revshare);
  return {
    clicks: group.clicks,
    registrations: group.registrations,
    ftds: group.ftds,
    qualified_ftds: group.qualified,
    deposits: money(group.deposits),
    withdrawals: money(group.withdrawals),
    ngr: money(group.ngr),
    cpa: money(group.cpa),
    revshare: money(revshare),
    commission: money(group.cpa.plus(revshare)),
    ...conversionRates(group),
  };
}

/** Day RevShare by date, from day rows of any links. */
function dayRevshares(planOn: PlanOn, days: FunnelDayRow[]): Map<string, Decimal> {
  const ngr = new Map<string, Decimal>();
  for (const row of days) ngr.set(row.day, (ngr.get(row.day) ?? zero()).plus(ngrOf(row)));
  return new Map([...ngr].map(([day, value]) => [day, revshareOf(planOn(day), value)]));
}

/**
 * Settles month by month, in order, starting from `carriedIn`; a month with the carry-over rule of the plan in
 * force on its last day. `plan`: one plan for every day, or the plan of each day. No RevShare on any day: no months.
 */
export function settleMonths(plan: Plan | undefined | PlanOn, revshareByDay: { date: string; revshare: string }[], carriedIn: string): RevShareMonth[] {
  const planOn = typeof plan === 'function' ? plan : always(plan);
  if (!revshareByDay.some(({ date }) => planOn(date)?.revshare)) return [];
  const months = new Map<string, { from: string; to: string; revshare: Decimal }>();
  for (const { date, revshare } of [...revshareByDay].sort((a, b) => a.date.localeCompare(b.date))) {
    const month = months.get(date.slice(0, 7));
    if (month) {
      month.to = date;
      month.revshare = month.revshare.plus(revshare);
    } else {
      months.set(date.slice(0, 7), { from: date, to: date, revshare: new Decimal(revshare) });
    }
  }
  let carry = new Decimal(carriedIn);
  return [...months].map(([month, { from, to, revshare }]) => {
    const balance = revshare.plus(carry);
    const settled: RevShareMonth = {
      month,
      from,
      to,
      revshare: money(revshare),
      carried_in: money(carry),
      payable: money(Decimal.max(balance, 0)),
      carried_out: money(planOn(to)?.revshare?.carry_over ? Decimal.min(balance, 0) : zero()),
    };
    carry = new Decimal(settled.carried_out);
    return settled;
  });
}

/**
 * What the months before `before` (YYYY-MM-DD, a month's first day) carry into
 * it: `days` are the affiliate's day rows before it, settled month by month
 * from nothing, each day under its plan. Zero when no plan carries over.
 */
export function carriedInto(plan: Plan | undefined | PlanOn, days: FunnelDayRow[]): string {
  const planOn = typeof plan === 'function' ? plan : always(plan);
  if (typeof plan !== 'function' && !plan?.revshare?.carry_over) return money(zero());
  const byDay = [...dayRevshares(planOn, days)].map(([date, revshare]) => ({ date, revshare: money(revshare) }));
  const months = settleMonths(planOn, byDay, '0');
  return months.length === 0 ? money(zero()) : months[months.length - 1].carried_out;
}

export interface ReportInput {
  affiliateId: string;
  currency: string;
  from: string;
  to: string;
  /** One plan for every day (no deals), or… */
  plan?: Plan | undefined;
  /** …the affiliate's deals, oldest first, with their plan versions: each day earns under its own. */
  deals?: DealPlan[];
  /** Day rows of the range. */
  days: FunnelDayRow[];
  /** First deposits of the range. */
  ftds: FtdRow[];
  /** carriedInto(the plans, the day rows before the range's first month). */
  carriedIn: string;
  /** Link names by id, where known. */
  linkNames?: Map<string, string>;
  /** Sub-id rows of the range: with them, the report has `sub_ids`. */
  subIdDays?: SubIdDayRow[];
}

const moneyFields = ['deposits', 'withdrawals', 'bets', 'wins', 'bonuses'] as const;
const countFields = ['clicks', 'registrations', 'ftds', 'deposit_count'] as const;
const bucketOrder = (subId: string) => (subId === noSubId ? 2 : subId.startsWith('(') ? 1 : 0);

/**
 * Rows by link and sub-id, like the link rows (unsettled): the sub-id rows
 * of the range, and per link `(none)`, what its days counted without a
 * sub-id: each day row less its sub-id rows (never below zero, for the
 * moment between the two writes). Qualified FTDs go to the row their
 * sub-id counted in that day (functions/domain/funnel.ts, subIdBucket).
 */
function subIdRowsOf(days: FunnelDayRow[], subIdDays: SubIdDayRow[], ftds: FtdRow[], planOn: PlanOn, names: Map<string, string> | undefined) {
  const dayKey = (row: { day: string; link_id: string }) => `${row.day}\u0000${row.link_id}`;
  const withSubIds = new Map<string, SubIdDayRow[]>();
  for (const row of subIdDays) withSubIds.set(dayKey(row), [...(withSubIds.get(dayKey(row)) ?? []), row]);
  const none: SubIdDayRow[] = days.map(({ sub_ids: _admitted, ...day }) => {
    const rest: SubIdDayRow = { ...day, sub_id: noSubId };
    for (const row of withSubIds.get(dayKey(day)) ?? []) {
      for (const field of countFields) rest[field] = Math.max(0, rest[field] - row[field]);
      for (const field of moneyFields) rest[field] = Decimal.max(0, new Decimal(rest[field]).minus(row[field])).toFixed();
    }
    return rest;
  });
  const admitted = new Map(days.map((day) => [dayKey(day), day.sub_ids]));
  const bucketed = ftds.map((ftd) => ({ ...ftd, sub_id: ftd.sub_id === undefined ? noSubId : subIdBucket(ftd.sub_id, admitted.get(dayKey(ftd))) }));
  const key = (row: { link_id: string; sub_id?: string }) => `${row.link_id}\u0000${row.sub_id}`;
  const groups = groupBy([...subIdDays, ...none], bucketed, planOn, key);
  return [...groups]
    .map(([k, group]) => {
      const [linkId, subId] = k.split('\u0000');
      const name = names?.get(linkId);
      return { link_id: linkId, ...(name === undefined ? {} : { name }), sub_id: subId, ...figures(group) };
    })
    .filter((row) => row.sub_id !== noSubId || isActive(row))
    .sort((a, b) => a.link_id.localeCompare(b.link_id) || bucketOrder(a.sub_id) - bucketOrder(b.sub_id) || a.sub_id.localeCompare(b.sub_id));
}

const isActive = (row: FunnelFigures) =>
  row.clicks > 0 || row.registrations > 0 || row.ftds > 0 || [row.deposits, row.withdrawals, row.ngr].some((value) => !new Decimal(value).isZero());

/** The deals within the range, clipped to it, with their plans in words. */
function reportDeals(deals: DealPlan[], from: string, to: string): NonNullable<AffiliateReport['deals']> {
  return periodsWithin(deals, (entry) => entry.deal.from, from, to).map(({ entry: { deal, plan }, from: start, to: end }) => ({
    plan_id: deal.plan_id,
    plan_version: deal.plan_version,
    name: plan?.name ?? deal.plan_id,
    description: plan ? describePlan(plan) : '',
    from: start,
    to: end,
  }));
}

/** The report of one affiliate for a range: one row per day of it (zeros included), one per link, the totals and the monthly settlement. */
export function affiliateReportOf(input: ReportInput): AffiliateReport {
  const planOn = input.deals ? planOnOf(input.deals) : always(input.plan);
  const inRange = <T extends { day: string }>(rows: T[]) => rows.filter((row) => row.day >= input.from && row.day <= input.to);
  const days = inRange(input.days);
  const ftds = inRange(input.ftds);
  const byDay = groupBy(days, ftds, planOn, (row) => row.day);
  const dayRows = daysBetween(input.from, input.to).map((date) => ({ date, ...figures(byDay.get(date) ?? emptyGroup()) }));
  const byLink = groupBy(days, ftds, planOn, (row) => row.link_id);
  const linkRows = [...byLink.keys()].sort().map((linkId) => {
    const name = input.linkNames?.get(linkId);
    return { link_id: linkId, ...(name === undefined ? {} : { name }), ...figures(byLink.get(linkId)!) };
  });
  const months = settleMonths(
    planOn,
    dayRows.map(({ date, revshare }) => ({ date, revshare })),
    input.carriedIn,
  );
  const all = emptyGroup();
  for (const row of days) addRow(all, row, undefined);
  const cpa = sum(dayRows.map((row) => new Decimal(row.cpa)));
  const revshare = sum(dayRows.map((row) => new Decimal(row.revshare)));
  const payable = sum(months.map((month) => new Decimal(month.payable)));
  const planId = input.deals
    ? dealOn(
        input.deals.map((entry) => entry.deal),
        input.to,
      )?.plan_id
    : input.plan?.plan_id;
  return {
    affiliate_id: input.affiliateId,
    currency: input.currency,
    from: input.from,
    to: input.to,
    ...(planId ? { plan_id: planId } : {}),
    ...(input.deals ? { deals: reportDeals(input.deals, input.from, input.to) } : {}),
    days: dayRows,
    links: linkRows,
    ...(input.subIdDays ? { sub_ids: subIdRowsOf(days, inRange(input.subIdDays), ftds, planOn, input.linkNames) } : {}),
    totals: {
      clicks: all.clicks,
      registrations: all.registrations,
      ftds: all.ftds,
      qualified_ftds: dayRows.reduce((n, row) => n + row.qualified_ftds, 0),
      deposits: money(all.deposits),
      withdrawals: money(all.withdrawals),
      ngr: money(all.ngr),
      cpa: money(cpa),
      revshare: money(revshare),
      commission: money(cpa.plus(payable)),
      ...conversionRates(all),
    },
    months,
  };
}

/** The deal of each day of a range (the trace's answer to "under which terms did this day earn"): null before any deal. */
export function dealDays(deals: Deal[], from: string, to: string): { date: string; plan_id: string | null; plan_version: number | null }[] {
  return daysBetween(from, to).map((date) => {
    const deal = dealOn(deals, date);
    return { date, plan_id: deal?.plan_id ?? null, plan_version: deal?.plan_version ?? null };
  });
}
