/**
 * Deals: which plan version an affiliate earns under, from which day
 * (docs/api.md, "Deals"). A plan's terms never change once written (an edit
 * is a new version), and an assignment has an effective day, so a change
 * never rewrites the months before it.
 */
import type { Plan } from './affiliate-program';
import { ValidationError } from './errors';

export interface Deal {
  plan_id: string;
  plan_version: number;
  /** YYYY-MM-DD, UTC day. */
  from: string;
  assigned_at: string;
  assigned_by?: string;
}

/** Assignments an affiliate item keeps at most: each is about 150 bytes of a 400 KB item. */
export const maxDeals = 500;

/** How far ahead a deal may start, in days. */
export const maxDaysAhead = 366;

/** A plan's version: stored plans from before versions have none, and are version 1. */
export const versionOf = (plan: Pick<Plan, 'version'>): number => plan.version ?? 1;

/**
 * An affiliate's deals, oldest first; an affiliate stored with only `plan_id` has one deal: version 1 from its
 * creation day (the migration is this reading, no batch job). Deals are appended, never rewritten: of two for the
 * same day, the later assignment replaces the earlier.
 */
export function dealsOf(affiliate: { plan_id?: string; deals?: Deal[]; created_at: string }): Deal[] {
  if (!affiliate.deals) {
    return affiliate.plan_id
      ? [{ plan_id: affiliate.plan_id, plan_version: 1, from: affiliate.created_at.slice(0, 10), assigned_at: affiliate.created_at }]
      : [];
  }
  const byDay = new Map<string, Deal>();
  for (const deal of affiliate.deals) {
    const held = byDay.get(deal.from);
    if (!held || held.assigned_at <= deal.assigned_at) byDay.set(deal.from, deal);
  }
  return [...byDay.values()].sort((a, b) => a.from.localeCompare(b.from));
}

/** The deal in force on `day` (the latest with from <= day), or undefined. */
export function dealOn(deals: Deal[], day: string): Deal | undefined {
  let found: Deal | undefined;
  for (const deal of deals) if (deal.from <= day) found = deal;
  return found;
}

/** Entries with a start day, oldest first: those in force within `from`–`to` (both included), each clipped to it. */
export function periodsWithin<T>(entries: T[], startOf: (entry: T) => string, from: string, to: string): { entry: T; from: string; to: string }[] {
  return entries.flatMap((entry, i) => {
    const start = startOf(entry);
    const end = i + 1 < entries.length ? dayBefore(startOf(entries[i + 1])) : to;
    if (end < from || start > to) return [];
    return [{ entry, from: start < from ? from : start, to: end > to ? to : end }];
  });
}

/** Port the statements lane implements: the last approved (or paid) month of the affiliate, YYYY-MM, or undefined. */
export interface StatementLock {
  lastClosedMonth(appId: string, affiliateId: string): Promise<string | undefined>;
}

/** No month is closed: what the service answers until statements exist. */

const datePattern = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day written YYYY-MM-DD. */
export const isDay = (value: string) =>
  datePattern.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** The day before `day` (YYYY-MM-DD, UTC). */
export function dayBefore(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

function daysAfter(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/**
 * Checks the day a new deal starts: any day from today on (at most maxDaysAhead ahead); a past day only after
 * the affiliate's last closed month, and not before the affiliate existed. Each refusal names `from`.
 */
export function checkDealStart(from: string, rules: { today: string; createdDay: string; lastClosedMonth?: string }): string {
  const problem = (() => {
    if (!isDay(from)) return 'from must be a date YYYY-MM-DD';
    if (from > daysAfter(rules.today, maxDaysAhead)) return `from must be at most ${maxDaysAhead} days after today`;
    if (from >= rules.today) return undefined;
    if (from < rules.createdDay) return `from must not be before the affiliate was created (${rules.createdDay})`;
    if (rules.lastClosedMonth !== undefined && from.slice(0, 7) <= rules.lastClosedMonth) {
      return `from must be after ${rules.lastClosedMonth}, the last month whose statement is approved`;
    }
    return undefined;
  })();
  if (problem) throw new ValidationError([problem], 'request is invalid');
  return from;
}
