/**
 * Deals as the back office reads them: the plan versions behind an affiliate's deals (for its report, its page and
 * the portal), and the plan in force on a day (the postbacks' `{payout}`). Assigning is ./affiliates.ts `assignPlan`.
 */
import type { Plan } from '../domain/affiliate-program';
import type { AffiliateSummary } from '../domain/affiliates';
import type { DealPlan } from '../domain/commission';
import { dealOn, dealsOf, type Deal } from '../domain/deals';
import type { PlanStore } from '../domain/plans';
import { describePlan } from '../domain/plans';

/** The plan versions of `deals`: one read per distinct version, at once. */
export async function plansOfDeals(office: { plans: Pick<PlanStore, 'getVersion'> }, appId: string, deals: Deal[]): Promise<DealPlan[]> {
  const keyOf = (deal: Deal) => `${deal.plan_id}#${deal.plan_version}`;
  const distinct = [...new Map(deals.map((deal) => [keyOf(deal), deal])).values()];
  const plans = new Map(
    await Promise.all(distinct.map(async (deal) => [keyOf(deal), await office.plans.getVersion(appId, deal.plan_id, deal.plan_version)] as const)),
  );
  return deals.map((deal) => ({ deal, plan: plans.get(keyOf(deal)) }));
}

/** An affiliate's deals with their plan versions, oldest first. */
export async function affiliateDealPlans(office: { plans: Pick<PlanStore, 'getVersion'> }, affiliate: AffiliateSummary): Promise<DealPlan[]> {
  return plansOfDeals(office, affiliate.app_id, dealsOf(affiliate));
}

/** A deal as the console, the command line and the portal show it. */
export interface DealView extends Deal {
  name: string;
  /** The version's terms in one line (describePlan). */
  description: string;
}

export const dealViewOf = ({ deal, plan }: DealPlan): DealView => ({
  ...deal,
  name: plan?.name ?? deal.plan_id,
  description: plan ? describePlan(plan) : '',
});

/** The plan version in force for the affiliate on `day` (YYYY-MM-DD), or undefined: an unknown affiliate, or no deal yet. */
export async function planOn(
  office: { affiliates: { get(appId: string, affiliateId: string): Promise<AffiliateSummary | undefined> }; plans: Pick<PlanStore, 'getVersion'> },
  appId: string,
  affiliateId: string,
  day: string,
): Promise<Plan | undefined> {
  const affiliate = await office.affiliates.get(appId, affiliateId);
  const deal = affiliate && dealOn(dealsOf(affiliate), day);
  return deal && office.plans.getVersion(appId, deal.plan_id, deal.plan_version);
}
