/**
 * Commission plans: what is checked before one is stored, and the port that
 * keeps them (docs/api.md, "Commission plans"). The Plan type itself is in
 * ./affiliate-program.ts, shared by every part of the programme.
 */
import { randomBytes } from 'node:crypto';
import DecimalJs from 'decimal.js';
import type { Plan } from './affiliate-program';
import { ValidationError } from './errors';

export interface PlanStore {
  /** Stores a new plan (its id is new) and its version 1. */
  create(plan: Plan): Promise<void>;
  /** The plan's current version. */
  get(appId: string, planId: string): Promise<Plan | undefined>;
  /** One version of the plan (a plan stored before versions is version 1). */
  getVersion(appId: string, planId: string, version: number): Promise<Plan | undefined>;
  /** Every version of the plan, oldest first. */
  versions(appId: string, planId: string): Promise<Plan[]>;
  /** Writes `next` (version previous + 1) as a new version and the current one; Conflict when `previous` is not current any more, or is archived. */
  saveVersion(next: Plan, previous: Plan): Promise<void>;
  /** Marks the plan archived; undefined when there is no such plan or it is archived already. */
  archive(appId: string, planId: string, at: string): Promise<Plan | undefined>;
  /** The application's plans (current versions), oldest first. */
  list(appId: string): Promise<Plan[]>;
}

export interface PlanInput {
  name: string;
  cpa?: { amount: string; min_deposit?: string };
  revshare?: { percent: string; carry_over?: boolean };
}

export const planLimits = { nameMax: 100, moneyMax: '1000000000' } as const;

export function newPlanId(): string {
  return `plan_${randomBytes(8).toString('hex')}`;
}

const money = /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;
const percent = /^(0|[1-9][0-9]*)(\.[0-9]{1,4})?$/;

/** A plan from the operator's input, checked: CPA, RevShare, or both (hybrid). Decimal strings are kept canonical (`50` → `50.00`). */
export function validPlan(input: PlanInput, ids: { appId: string; planId: string; createdAt: string }): Plan {
  const errors: string[] = [];
  const name = input.name.trim();
  if (name.length === 0 || name.length > planLimits.nameMax || /\p{Cc}/u.test(name)) {
    errors.push(`name must be 1 to ${planLimits.nameMax} characters, without control characters`);
  }
  if (!input.cpa && !input.revshare) errors.push('a plan needs cpa, revshare or both');
  const amount = (value: string, field: string) => {
    if (!money.test(value) || new DecimalJs(value).gt(planLimits.moneyMax)) {
      errors.push(`${field} must be an amount such as 50 or 49.99 (at most 2 decimals, at most ${planLimits.moneyMax})`);
      return value;
    }
    return new DecimalJs(value).toFixed(2);
  };
  let cpa: Plan['cpa'];
  if (input.cpa) {
    cpa = { amount: amount(input.cpa.amount, 'cpa amount'), min_deposit: amount(input.cpa.min_deposit ?? '0', 'cpa min_deposit') };
    if (money.test(input.cpa.amount) && new DecimalJs(input.cpa.amount).isZero()) errors.push('cpa amount must be more than 0');
  }
  let revshare: Plan['revshare'];
  if (input.revshare) {
    const value = input.revshare.percent;
    if (!percent.test(value) || new DecimalJs(value).gt(100)) {
      errors.push('revshare percent must be a number from 0 to 100 (at most 4 decimals)');
    }
    revshare = { percent: percent.test(value) ? new DecimalJs(value).toString() : value, carry_over: input.revshare.carry_over ?? false };
  }
  if (errors.length > 0) throw new ValidationError(errors, 'plan is invalid');
  return {
    app_id: ids.appId,
    plan_id: ids.planId,
    name,
    ...(cpa ? { cpa } : {}),
    ...(revshare ? { revshare } : {}),
    created_at: ids.createdAt,
  };
}

/** How a plan reads in one line: `CPA 50.00 (first deposit ≥ 20.00) + RevShare 25 % with carry-over`. */
export function describePlan(plan: Pick<Plan, 'cpa' | 'revshare'>): string {
  const parts = [
    plan.cpa ? `CPA ${plan.cpa.amount} (first deposit ≥ ${plan.cpa.min_deposit})` : undefined,
    plan.revshare ? `RevShare ${plan.revshare.percent} %${plan.revshare.carry_over ? ' with carry-over' : ''}` : undefined,
  ];
  return parts.filter(Boolean).join(' + ');
}

/** Money in words: `€50.00` for the currencies people write with a sign, else `50.00 CHF`. */
export function moneyInWords(amount: string, currency: string): string {
  const signs: Record<string, string> = { EUR: '€', USD: '$', GBP: '£' };
  return signs[currency] ? `${signs[currency]}${amount}` : `${amount} ${currency}`;
}

/** A deal as an affiliate reads it: `CPA €50.00 per first deposit of at least €20.00 + 25 % RevShare with carry-over`. */
export function describeDeal(plan: Pick<Plan, 'cpa' | 'revshare'>, currency: string): string {
  const cpa = plan.cpa
    ? `CPA ${moneyInWords(plan.cpa.amount, currency)} per first deposit${new DecimalJs(plan.cpa.min_deposit).isZero() ? '' : ` of at least ${moneyInWords(plan.cpa.min_deposit, currency)}`}`
    : undefined;
  const revshare = plan.revshare ? `${plan.revshare.percent} % RevShare${plan.revshare.carry_over ? ' with carry-over' : ''}` : undefined;
  return [cpa, revshare].filter(Boolean).join(' + ');
}
