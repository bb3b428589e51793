/**
 * Affiliates as the operator manages them: a paged listing (GET
 * /api/affiliates, and with plan names the console's), one affiliate with its
 * plan, links and whether it has a postback URL, approving and suspending,
 * assigning a plan. The changes are audited here, whoever calls (the
 * console's operations, the admin command line).
 */
import type { AffiliateStatus, Plan } from '../domain/affiliate-program';
import { affiliateContactFields, statusOf, type AffiliateContactField, type AffiliateSummary } from '../domain/affiliates';
import type { AuditActor } from '../domain/audit';
import { checkDealStart, dealOn, dealsOf, isDay, maxDeals, versionOf, type Deal } from '../domain/deals';
import { Conflict, NotFound, ValidationError } from '../domain/errors';
import { clickAddress } from './affiliate-links';
import { decodeCursor, encodeCursor } from './cursors';
import { requireApp } from './apps';
import { audit } from './audit';
import { affiliateDealPlans, dealViewOf, type DealView } from './deals';
import { requirePlan } from './plans';
import { nowOf, type BackOffice } from './ports';

/** An affiliate in a listing: who, its status and plan; never contacts beyond the email, never the password hash. */
export interface AffiliateListItem {
  affiliate_id: string;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  status: AffiliateStatus;
  plan_id: string | null;
  created_at: string;
}

export interface AffiliatePage {
  affiliates: AffiliateListItem[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

export const affiliatePageLimits = { default: 50, max: 100 } as const;

/** `plan_id`: the plan of the deal in force on `today` (YYYY-MM-DD, UTC), null before any. */
export function listItemOf(affiliate: AffiliateSummary, today = new Date().toISOString().slice(0, 10)): AffiliateListItem {
  return {
    affiliate_id: affiliate.affiliate_id,
    username: affiliate.username,
    email: affiliate.email,
    first_name: affiliate.first_name,
    last_name: affiliate.last_name,
    status: statusOf(affiliate),
    plan_id: dealOn(dealsOf(affiliate), today)?.plan_id ?? null,
    created_at: affiliate.created_at,
  };
}

/** The opaque cursor of a listing page: the application and the last affiliate shown. */
export const encodeAffiliateCursor = (appId: string, affiliateId: string): string => encodeCursor([appId], affiliateId);

/** Where the page after `cursor` starts; the cursor must come from a listing of this very application. */
export const decodeAffiliateCursor = (cursor: string, appId: string): string => decodeCursor(cursor, [appId], 'listing');

/** A page of the application's affiliates, by affiliate id; only those of `status` when given (a filtered page may be short and still have a next one). */
export async function listAffiliatePage(
  office: Pick<BackOffice, 'affiliates'>,
  appId: string,
  options: { limit?: number; cursor?: string; status?: AffiliateStatus } = {},
): Promise<AffiliatePage> {
  const start = options.cursor === undefined ? undefined : decodeAffiliateCursor(options.cursor, appId);
  const page = await office.affiliates.page(appId, options.limit ?? affiliatePageLimits.default, start, options.status);
  return {
    affiliates: page.affiliates.map((affiliate) => listItemOf(affiliate)),
    next_cursor: page.next === undefined ? null : encodeAffiliateCursor(appId, page.next),
  };
}

/** The plan as a listing names it. */
export interface PlanRef {
  plan_id: string;
  name: string;
}

/** A listing item with its plan's name: null without a plan. */
export type AffiliateWithPlan = AffiliateListItem & { plan: PlanRef | null };

const planRefOf = (plans: Map<string, Plan>, planId: string | null): PlanRef | null => {
  const plan = planId === null ? undefined : plans.get(planId);
  return plan ? { plan_id: plan.plan_id, name: plan.name } : null;
};

/** A page of the listing with each affiliate's plan named: one read of the application's plans, when any affiliate has one. */
export async function listAffiliatesWithPlans(
  office: Pick<BackOffice, 'affiliates' | 'plans'>,
  appId: string,
  options: { limit?: number; cursor?: string; status?: AffiliateStatus } = {},
): Promise<{ affiliates: AffiliateWithPlan[]; next_cursor: string | null }> {
  const page = await listAffiliatePage(office, appId, options);
  const plans = page.affiliates.some((affiliate) => affiliate.plan_id !== null) ? await office.plans.list(appId) : [];
  const byId = new Map(plans.map((plan) => [plan.plan_id, plan]));
  return { ...page, affiliates: page.affiliates.map((affiliate) => ({ ...affiliate, plan: planRefOf(byId, affiliate.plan_id) })) };
}

/** One affiliate as the console shows it: never its password hash, nor its postback URL's signing secret. */
export interface AffiliateDetail extends AffiliateWithPlan {
  /** The contact fields it registered with (only those given). */
  contacts: Partial<Record<AffiliateContactField, string>>;
  /** Its tracking links, oldest first, each with the address its visitors click. */
  links: { link_id: string; name: string; landing_url: string; created_at: string; click_url: string }[];
  /** Whether postbacks are on (a URL is set); the URL and its secret stay with the affiliate. */
  postback_url_set: boolean;
  /** Its deals, oldest first: each plan version in words, from its day (the last may be ahead of today). */
  deals: DealView[];
}

export type AffiliateDetailOffice = Pick<BackOffice, 'affiliates' | 'plans' | 'links' | 'now'> & { postbacks: Pick<BackOffice['postbacks'], 'settings'> };

/** The application's affiliate `affiliateId`, its links' click addresses on `baseUrl`; another application's or an unknown one is the same 404. */
export function affiliateDetail(office: AffiliateDetailOffice) {
  return async (appId: string, affiliateId: string, baseUrl: string): Promise<AffiliateDetail> => {
    const affiliate = await office.affiliates.get(appId, affiliateId);
    if (!affiliate) throw new NotFound(`no affiliate ${affiliateId} in application ${appId}`);
    const [deals, links, postback] = await Promise.all([
      affiliateDealPlans(office, affiliate),
      office.links.listByAffiliate(appId, affiliateId),
      office.postbacks.settings.get(appId, affiliateId),
    ]);
    const today = nowOf(office).toISOString().slice(0, 10);
    const current = dealOn(
      deals.map((entry) => entry.deal),
      today,
    );
    const plan = current && deals.find((entry) => entry.deal === current)?.plan;
    return {
      ...listItemOf(affiliate, today),
      plan: plan ? { plan_id: plan.plan_id, name: plan.name } : null,
      contacts: Object.fromEntries(affiliateContactFields.filter((field) => affiliate[field] !== undefined).map((field) => [field, affiliate[field]])),
      links: links.map((link) => ({
        link_id: link.link_id,
        name: link.name,
        landing_url: link.landing_url,
        created_at: link.created_at,
        click_url: clickAddress(baseUrl, link.link_id),
      })),
      postback_url_set: postback.postback_url !== undefined,
      deals: deals.map(dealViewOf),
    };
  };
}

/** The statuses an operator decides; `pending` is where a new affiliate waits, never a decision. */
export const affiliateDecisions = ['approved', 'suspended'] as const satisfies readonly AffiliateStatus[];
export type AffiliateDecision = (typeof affiliateDecisions)[number];

const decisionActions: Record<AffiliateDecision, string> = { approved: 'affiliate.approved', suspended: 'affiliate.suspended' };

type ChangeOffice = Pick<BackOffice, 'apps' | 'affiliates' | 'audit' | 'now'>;

async function requireAffiliate(office: ChangeOffice, appId: string, affiliateId: string): Promise<AffiliateSummary> {
  await requireApp(office, appId);
  const affiliate = await office.affiliates.get(appId, affiliateId);
  if (!affiliate) throw new NotFound(`no affiliate ${affiliateId} in application ${appId}`);
  return affiliate;
}

async function update(
  office: ChangeOffice,
  appId: string,
  affiliateId: string,
  changes: { status?: AffiliateStatus; plan_id?: string },
): Promise<AffiliateListItem> {
  const updated = await office.affiliates.update(appId, affiliateId, changes);
  if (!updated) throw new NotFound(`no affiliate ${affiliateId} in application ${appId}`);
  return listItemOf(updated);
}

/**
 * Approves (a pending or suspended affiliate may then sign in and earn) or
 * suspends an affiliate, audited as `affiliate.approved` / `affiliate.suspended`.
 * Giving the status it has changes nothing and writes no entry.
 */
export async function setAffiliateStatus(
  office: ChangeOffice,
  appId: string,
  actor: AuditActor,
  affiliateId: string,
  status: AffiliateDecision,
): Promise<AffiliateListItem> {
  const affiliate = await requireAffiliate(office, appId, affiliateId);
  const from = statusOf(affiliate);
  if (from === status) return listItemOf(affiliate);
  const updated = await update(office, appId, affiliateId, { status });
  await audit(office)({ appId, actor, action: decisionActions[status], target: `affiliate:${affiliateId}`, details: { from, to: status } });
  return updated;
}

/**
 * Puts an affiliate on one of the application's plans, in its current version, from `from` (YYYY-MM-DD, UTC;
 * default today): a deal. Any day from today on; a past day only after the affiliate's last closed month
 * (StatementLock), never before the affiliate existed. A deal for a day that has one replaces it. The months
 * before `from` keep the deals they had. An archived plan is refused. Audited as `affiliate.plan_assigned`
 * (the plan before and after, the version, and the day); the plan and version already in force from that day
 * on, with nothing scheduled after it, write nothing.
 */
export async function assignPlan(
  office: ChangeOffice & Pick<BackOffice, 'plans' | 'statementLock'>,
  appId: string,
  actor: AuditActor,
  affiliateId: string,
  planId: string,
  from?: string,
): Promise<AffiliateListItem> {
  const plan = await requirePlan(office, appId, planId);
  if (plan.archived_at !== undefined) throw new ValidationError([`plan_id ${planId} is archived: it is not assigned any more`], 'request is invalid');
  // Appends race-free; a lost race (another assignment's first write) reads again.
  for (let attempt = 1; ; attempt += 1) {
    const affiliate = await requireAffiliate(office, appId, affiliateId);
    const now = nowOf(office);
    const today = now.toISOString().slice(0, 10);
    const day = from ?? today;
    const lastClosedMonth = isDay(day) && day < today ? await office.statementLock.lastClosedMonth(appId, affiliateId) : undefined;
    checkDealStart(day, { today, createdDay: affiliate.created_at.slice(0, 10), lastClosedMonth });
    const deals = dealsOf(affiliate);
    const before = dealOn(deals, day);
    const version = versionOf(plan);
    if (before?.plan_id === planId && before.plan_version === version && !deals.some((deal) => deal.from > day)) return listItemOf(affiliate, today);
    if ((affiliate.deals?.length ?? 0) >= maxDeals) throw new Conflict(`affiliate ${affiliateId} has ${maxDeals} plan assignments, the most kept`);
    const deal: Deal = { plan_id: planId, plan_version: version, from: day, assigned_at: now.toISOString(), assigned_by: actor.email };
    const first = affiliate.deals === undefined;
    let updated: AffiliateSummary;
    try {
      // The first deal written keeps an affiliate's deal from before deals (dealsOf's reading) beside it.
      updated = await office.affiliates.appendDeals(appId, affiliateId, first ? [...deals, deal] : [deal], first);
    } catch (error) {
      if (error instanceof Conflict && attempt < 3) continue;
      throw error;
    }
    await audit(office)({
      appId,
      actor,
      action: 'affiliate.plan_assigned',
      target: `affiliate:${affiliateId}`,
      details: { from: before?.plan_id ?? null, to: planId, version, effective_from: day },
    });
    return listItemOf(updated, today);
  }
}

/** The application's affiliate's deals, oldest first, each plan version in words. */
export async function affiliateDeals(office: ChangeOffice & Pick<BackOffice, 'plans'>, appId: string, affiliateId: string): Promise<DealView[]> {
  const affiliate = await requireAffiliate(office, appId, affiliateId);
  return (await affiliateDealPlans(office, affiliate)).map(dealViewOf);
}
