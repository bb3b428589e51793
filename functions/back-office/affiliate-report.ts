/**
 * An affiliate's report for a range of days, and its trace: the players and
 * events behind each commission line. Shared by GET
 * /api/affiliates/{affiliate_id}/report, the admin CLI and the portal.
 */
import {
  defaultCurrency,
  noLink,
  type AffiliateReport,
  type FtdRow,
  type FunnelReader,
  type LinkStore,
  type MoneyKind,
  type RegistrationRow,
} from '../domain/affiliate-program';
import type { AffiliateStore, AffiliateSummary } from '../domain/affiliates';
import type { AppStore } from '../domain/apps';
import type { PlanStore } from '../domain/plans';
import { affiliateReportOf, carriedInto, dayBefore, dealDays, daysBetween, monthStart, planOnOf, qualifies } from '../domain/commission';
import { dealOn, isDay } from '../domain/deals';
import { affiliateDealPlans } from './deals';
import { NotFound, ValidationError } from '../domain/errors';
import { partitionKey } from '../domain/stream-record';
import { decodeCursor, encodeCursor } from './cursors';
import type { BackOffice } from './ports';

/** The longest range a report covers, in days (both ends included). */
export const maxReportDays = 366;

/** Where the affiliate's history starts for what earlier months carry over (no funnel day predates it). */
const historyStart = '1970-01-01';

/** Checks a report's range: real dates, from ≤ to, at most maxReportDays days; each refusal names its field. */
export function checkReportRange(from: string | undefined, to: string | undefined): { from: string; to: string } {
  const errors: string[] = [];
  if (from === undefined) errors.push('from is required (YYYY-MM-DD)');
  else if (!isDay(from)) errors.push('from must be a date YYYY-MM-DD');
  if (to === undefined) errors.push('to is required (YYYY-MM-DD)');
  else if (!isDay(to)) errors.push('to must be a date YYYY-MM-DD');
  if (errors.length === 0) {
    if (to! < from!) errors.push('to must not be before from');
    else if (daysBetween(from!, to!).length > maxReportDays) errors.push(`to must be at most ${maxReportDays} days from from (both included)`);
  }
  if (errors.length > 0) throw new ValidationError(errors, 'request is invalid');
  return { from: from!, to: to! };
}

/** What a report reads: the affiliate, its application and plan, the funnel, and link names where a link store is at hand. */
export interface ReportPorts {
  apps: Pick<AppStore, 'get'>;
  affiliates: Pick<AffiliateStore, 'get'>;
  plans: Pick<PlanStore, 'getVersion'>;
  funnel: FunnelReader;
  links: Pick<LinkStore, 'listByAffiliate'>;
}

/** The application's affiliate; another application's or an unknown one is the same 404. */
async function requireAffiliate(office: Pick<ReportPorts, 'affiliates'>, appId: string, affiliateId: string): Promise<AffiliateSummary> {
  const affiliate = await office.affiliates.get(appId, affiliateId);
  if (!affiliate) throw new NotFound('Not Found');
  return affiliate;
}

/** Names of the affiliate's links among `linkIds`: one query of the affiliate's links, not a read per link. */
async function linkNames(office: Pick<ReportPorts, 'links'>, affiliate: AffiliateSummary, linkIds: string[]): Promise<Map<string, string>> {
  const wanted = new Set(linkIds.filter((id) => id !== noLink));
  if (wanted.size === 0) return new Map();
  const links = await office.links.listByAffiliate(affiliate.app_id, affiliate.affiliate_id);
  return new Map(links.filter((link) => wanted.has(link.link_id)).map((link) => [link.link_id, link.name]));
}

/** What a report reads beyond days and links: the sub-id rows cost a query of their own, so only who shows them asks. */
export interface ReportOptions {
  subIds?: boolean;
}

/**
 * The affiliate's report from `from` to `to` (YYYY-MM-DD, both included),
 * each day under its deal: per day, per link, totals, the deals and the
 * RevShare settlement by month (functions/domain/commission.ts); by sub-id too when asked.
 */
export function affiliateReport(office: ReportPorts) {
  return async (appId: string, affiliateId: string, from: string, to: string, options: ReportOptions = {}): Promise<AffiliateReport> => {
    const range = checkReportRange(from, to);
    const affiliate = await requireAffiliate(office, appId, affiliateId);
    const [app, deals] = await Promise.all([office.apps.get(appId), affiliateDealPlans(office, affiliate)]);
    const firstMonth = monthStart(range.from);
    // What earlier months carry in matters only when a deal before the range carries over.
    const carries = deals.some(({ deal, plan }) => deal.from < firstMonth && plan?.revshare?.carry_over);
    const [days, ftds, earlier, subIdDays] = await Promise.all([
      office.funnel.days(appId, affiliateId, range.from, range.to),
      office.funnel.ftds(appId, affiliateId, range.from, range.to),
      carries ? office.funnel.days(appId, affiliateId, historyStart, dayBefore(firstMonth)) : Promise.resolve([]),
      options.subIds ? (office.funnel.subIdDays?.(appId, affiliateId, range.from, range.to) ?? Promise.resolve([])) : undefined,
    ]);
    return affiliateReportOf({
      affiliateId,
      currency: app?.currency ?? defaultCurrency,
      from: range.from,
      to: range.to,
      deals,
      days,
      ftds,
      carriedIn: carriedInto(planOnOf(deals), earlier),
      linkNames: await linkNames(office, affiliate, [...new Set(days.map((row) => row.link_id))]),
      ...(subIdDays ? { subIdDays } : {}),
    });
  };
}

/** A money event of an attributed player, as the timeline holds it. */
export interface MoneyEventLine {
  event: string;
  kind: MoneyKind;
  urm_date_time: string;
  urm_insert_id: string;
  amount?: unknown;
  currency?: unknown;
  exchange_rate?: unknown;
}

/** What is behind an affiliate's commission lines in a range. */
export interface AffiliateTrace {
  affiliate_id: string;
  currency: string;
  from: string;
  to: string;
  plan_id?: string;
  /** The deal of each day of the range (null before the first). */
  days: { date: string; plan_id: string | null; plan_version: number | null }[];
  /** The players attributed in the range: the registrations. */
  registrations: RegistrationRow[];
  /** First deposits in the range, each with its day's deal and whether it reached that plan's minimum (a CPA line). */
  ftds: (FtdRow & { qualified: boolean; plan_id: string | null; plan_version: number | null })[];
  /** Every player attributed by the end of the range, with the money events of the range (the NGR behind RevShare), oldest first. */
  players: { profile_id: string; link_id: string; events: MoneyEventLine[] }[];
  /** With a page size: pass as `cursor` for the next page of players; null on the last (and always without one). */
  next_cursor: string | null;
}

/** Players per page of a paged trace: each player's money events are a read of its timeline. */
export const traceLimits = { default: 25, max: 100 } as const;

/** Where a page of players ends: the registration's day and profile id, the funnel's order. */
const tracePosition = (row: Pick<RegistrationRow, 'day' | 'profile_id'>) => `${row.day}#${row.profile_id}`;

const encodeTraceCursor = (appId: string, affiliateId: string, position: string): string => encodeCursor([appId, affiliateId], position);

/** The position a cursor names; it must come from a trace of this very affiliate. */
const decodeTraceCursor = (cursor: string, appId: string, affiliateId: string): string => decodeCursor(cursor, [appId, affiliateId], 'trace');

/** Timeline pages read per player, at most (100 entries each): a bound, not a limit players reach. */
export const tracePageBound = 1000;

type TracePorts = Omit<ReportPorts, 'links'> & Pick<BackOffice, 'timeline'>;

async function moneyEventsOf(
  office: Pick<BackOffice, 'timeline'>,
  appId: string,
  profileId: string,
  names: Record<string, MoneyKind>,
  from: string,
  to: string,
): Promise<MoneyEventLine[]> {
  const lines: MoneyEventLine[] = [];
  let start: Record<string, string> | undefined;
  for (let pages = 0; pages < tracePageBound; pages += 1) {
    const page = await office.timeline.page(partitionKey(appId, profileId), 100, start);
    for (const entry of page.entries) {
      const day = entry.ts.slice(0, 10);
      if (day < from) return lines.reverse();
      const kind = Object.hasOwn(names, entry.event) ? names[entry.event] : undefined;
      if (day > to || kind === undefined) continue;
      const attributes = JSON.parse(entry.attrs) as Record<string, unknown>;
      lines.push({
        event: entry.event,
        kind,
        urm_date_time: entry.urm_date_time,
        urm_insert_id: entry.insert_id,
        ...Object.fromEntries((['amount', 'currency', 'exchange_rate'] as const).filter((k) => k in attributes).map((k) => [k, attributes[k]])),
      });
    }
    if (!page.next) break;
    start = page.next;
  }
  return lines.reverse();
}

/**
 * The affiliate's registrations, first deposits and players' money events in
 * the range: what each commission line stands on. With `limit`, the players
 * come a page at a time (registrations and first deposits whole on every
 * page); without, all of them (the command line).
 */
export function affiliateTrace(office: TracePorts) {
  return async (appId: string, affiliateId: string, from: string, to: string, page: { limit?: number; cursor?: string } = {}): Promise<AffiliateTrace> => {
    const range = checkReportRange(from, to);
    const after = page.cursor === undefined ? undefined : decodeTraceCursor(page.cursor, appId, affiliateId);
    const affiliate = await requireAffiliate(office, appId, affiliateId);
    const [app, deals] = await Promise.all([office.apps.get(appId), affiliateDealPlans(office, affiliate)]);
    const planOn = planOnOf(deals);
    const dealList = deals.map((entry) => entry.deal);
    const [attributed, ftds] = await Promise.all([
      office.funnel.registrations(appId, affiliateId, historyStart, range.to),
      office.funnel.ftds(appId, affiliateId, range.from, range.to),
    ]);
    const ordered = [...attributed].sort((a, b) => (tracePosition(a) < tracePosition(b) ? -1 : tracePosition(a) > tracePosition(b) ? 1 : 0));
    const rest = after === undefined ? ordered : ordered.filter((row) => tracePosition(row) > after);
    const shown = page.limit === undefined ? rest : rest.slice(0, page.limit);
    const players: AffiliateTrace['players'] = [];
    for (const registration of shown) {
      const events = await moneyEventsOf(office, appId, registration.profile_id, app?.money_events ?? {}, range.from, range.to);
      players.push({ profile_id: registration.profile_id, link_id: registration.link_id, events });
    }
    return {
      affiliate_id: affiliateId,
      currency: app?.currency ?? defaultCurrency,
      from: range.from,
      to: range.to,
      ...(planOn(range.to) ? { plan_id: dealOn(dealList, range.to)!.plan_id } : {}),
      days: dealDays(dealList, range.from, range.to),
      registrations: attributed.filter((row) => row.day >= range.from),
      ftds: ftds.map((ftd) => {
        const deal = dealOn(dealList, ftd.day);
        return { ...ftd, qualified: qualifies(planOn(ftd.day), ftd), plan_id: deal?.plan_id ?? null, plan_version: deal?.plan_version ?? null };
      }),
      players,
      next_cursor: shown.length < rest.length ? encodeTraceCursor(appId, affiliateId, tracePosition(shown[shown.length - 1])) : null,
    };
  };
}
