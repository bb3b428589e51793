/**
 * The operator's programme view: every affiliate's month side by side (each
 * computed by the affiliate's own report), the month's totals, the top
 * affiliates and the top sub-ids. Pure: money as exact decimal strings,
 * summed with decimal.js.
 */
import { Decimal } from 'decimal.js';
import type { AffiliateStatus, FunnelDayRow, FunnelFigures } from './affiliate-program';

/** A calendar month, YYYY-MM; no earlier than 2000 (nothing the funnel holds predates it). */
export const monthPattern = '^(2[0-9]{3})-(0[1-9]|1[0-2])$';

/** How much one programme view computes, at most (docs/api.md, "The programme view"). */
export const programmeLimits = {
  /** Affiliates per view: each is about 2 to 5 DynamoDB queries (its report, its sub-ids). */
  maxAffiliates: 1000,
  /** Reports computed at once: under the 50 connections the SDK client keeps. */
  concurrency: 16,
  /** Entries in each top list. */
  top: 10,
} as const;

/** The figures the view shows per affiliate (money in the application's currency). */
export const programmeFigures = ['clicks', 'registrations', 'ftds', 'qualified_ftds', 'deposits', 'ngr', 'cpa', 'revshare', 'commission'] as const;
type Figures = Pick<FunnelFigures, (typeof programmeFigures)[number]>;

/** One affiliate's month. */
export interface ProgrammeRow extends Figures {
  affiliate_id: string;
  username: string;
  status: AffiliateStatus;
  plan: { plan_id: string; name: string } | null;
}

/**
 * One sub-id's figures on one day under one of the affiliate's links: the rows the funnel keeps per sub-id
 * (`s#<day>#<link_id>#<sub_id>` under the affiliate's partition; the rest of a busy day in `(other)`).
 */
export type SubIdDayRow = Pick<FunnelDayRow, 'app_id' | 'affiliate_id' | 'link_id' | 'day' | 'clicks' | 'registrations' | 'ftds' | 'deposits'> & {
  sub_id: string;
};

/** Reading the funnel's sub-id day rows of an affiliate; days are inclusive YYYY-MM-DD bounds. */
export interface SubIdReader {
  subIdDays(appId: string, affiliateId: string, from: string, to: string): Promise<SubIdDayRow[]>;
}

/** A sub-id's month under one affiliate and link. */
export interface TopSubId {
  affiliate_id: string;
  username: string;
  link_id: string;
  sub_id: string;
  clicks: number;
  registrations: number;
  ftds: number;
  deposits: string;
}

/** GET /console/api/programme's answer. */
export interface Programme {
  month: string;
  from: string;
  to: string;
  currency: string;
  affiliates: ProgrammeRow[];
  totals: Figures;
  top: { by_commission: ProgrammeRow[]; by_ftds: ProgrammeRow[]; sub_ids: TopSubId[] };
  /** True when the application has more than `programmeLimits.maxAffiliates` affiliates: the first ones by id are shown. */
  truncated: boolean;
}

/** The first and last day of a month YYYY-MM. */
export function monthDays(month: string): { from: string; to: string } {
  const [year, number] = month.split('-').map(Number);
  const last = new Date(Date.UTC(year, number, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

const money = (value: Decimal) => value.toFixed(2);

/** The sum of rows' figures: counts added, money added exactly. */
export function totalsOf(rows: readonly Figures[]): Figures {
  const sum = (name: 'deposits' | 'ngr' | 'cpa' | 'revshare' | 'commission') => money(rows.reduce((total, row) => total.plus(row[name]), new Decimal(0)));
  const count = (name: 'clicks' | 'registrations' | 'ftds' | 'qualified_ftds') => rows.reduce((total, row) => total + row[name], 0);
  return {
    clicks: count('clicks'),
    registrations: count('registrations'),
    ftds: count('ftds'),
    qualified_ftds: count('qualified_ftds'),
    deposits: sum('deposits'),
    ngr: sum('ngr'),
    cpa: sum('cpa'),
    revshare: sum('revshare'),
    commission: sum('commission'),
  };
}

/** Whether the affiliate did anything in the month: only then has it sub-id rows to read. */
export const hasActivity = (row: Figures) =>
  row.clicks > 0 || row.registrations > 0 || row.ftds > 0 || !new Decimal(row.deposits).isZero() || !new Decimal(row.ngr).isZero();

/** A sub-id's days added up, per affiliate, link and sub-id. */
export function subIdMonths(rows: readonly SubIdDayRow[], usernames: ReadonlyMap<string, string>): TopSubId[] {
  const months = new Map<string, TopSubId & { money: Decimal }>();
  for (const row of rows) {
    const key = JSON.stringify([row.affiliate_id, row.link_id, row.sub_id]);
    const month = months.get(key) ?? {
      affiliate_id: row.affiliate_id,
      username: usernames.get(row.affiliate_id) ?? row.affiliate_id,
      link_id: row.link_id,
      sub_id: row.sub_id,
      clicks: 0,
      registrations: 0,
      ftds: 0,
      deposits: '0.00',
      money: new Decimal(0),
    };
    month.clicks += row.clicks;
    month.registrations += row.registrations;
    month.ftds += row.ftds;
    month.money = month.money.plus(row.deposits);
    months.set(key, month);
  }
  return [...months.values()].map(({ money: total, ...month }) => ({ ...month, deposits: money(total) }));
}

const byName = (a: { username: string }, b: { username: string }) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0);

/** The first `count` rows by commission, then by FTDs (each with something to rank: a zero is no top affiliate). */
export function topAffiliates(rows: readonly ProgrammeRow[], count: number = programmeLimits.top): Programme['top'] {
  const byCommission = rows
    .filter((row) => new Decimal(row.commission).gt(0))
    .sort((a, b) => new Decimal(b.commission).comparedTo(a.commission) || b.ftds - a.ftds || byName(a, b));
  const byFtds = rows.filter((row) => row.ftds > 0).sort((a, b) => b.ftds - a.ftds || new Decimal(b.commission).comparedTo(a.commission) || byName(a, b));
  return { by_commission: byCommission.slice(0, count), by_ftds: byFtds.slice(0, count), sub_ids: [] };
}

/** The first `count` sub-ids by FTDs, then registrations, then clicks; `(other)`, the overflow of busy days, is no sub-id to rank. */
export function topSubIds(months: readonly TopSubId[], count: number = programmeLimits.top): TopSubId[] {
  return months
    .filter((month) => month.sub_id !== '(other)' && (month.ftds > 0 || month.registrations > 0 || month.clicks > 0))
    .sort((a, b) => b.ftds - a.ftds || b.registrations - a.registrations || b.clicks - a.clicks || byName(a, b) || (a.sub_id < b.sub_id ? -1 : 1))
    .slice(0, count);
}
