/**
 * Monthly statements (docs/api.md, "Statements, adjustments and payments"):
 * what an affiliate earned in a calendar month, the adjustments on it, what
 * was brought forward and carried forward, and its status. Pure: exact
 * decimals (decimal.js), two places, rounded half away from zero, as
 * commission.ts computes them.
 */
import type { StatementLock } from './deals';
import DecimalJs from 'decimal.js';
import type { AffiliateReport } from './affiliate-program';
import { identifierPattern } from './text';

const Decimal = DecimalJs.clone({ precision: 60, rounding: DecimalJs.ROUND_HALF_UP });
type Decimal = InstanceType<typeof Decimal>;

const money = (value: DecimalJs.Value) => new Decimal(value).toFixed(2, Decimal.ROUND_HALF_UP);
const sum = (values: DecimalJs.Value[]) => money(values.reduce<Decimal>((total, value) => total.plus(value), new Decimal(0)));

export const statementStatuses = ['open', 'approved', 'paid'] as const;
export type StatementStatus = (typeof statementStatuses)[number];

/** A line on a statement besides what the month earned: a person's (manual) or the activity found after a month was approved (late). */
export interface StatementAdjustment {
  adjustment_id: string;
  kind: 'manual' | 'late';
  /** Decimal string, two places; negative takes away. */
  amount: string;
  reason: string;
  /** Late: the approved month the activity belongs to. */
  for_month?: string;
  /** Manual: who added it (the console user's email, or the command line) and when. */
  created_by?: string;
  created_at?: string;
}

export interface StatementPayment {
  reference: string;
  /** YYYY-MM-DD. */
  paid_at: string;
  paid_by: string;
}

/** One affiliate's statement for one calendar month. */
export interface Statement {
  affiliate_id: string;
  /** YYYY-MM. */
  month: string;
  currency: string;
  status: StatementStatus;
  qualified_ftds: number;
  /** Qualified FTDs × the deal's amount. */
  cpa: string;
  /** The month's RevShare payable, after carry-over. */
  revshare: string;
  adjustments: StatementAdjustment[];
  /** A previous statement's total that was below the minimum payout. */
  brought_forward: string;
  /** cpa + revshare + the adjustments + brought_forward. */
  total: string;
  /** The total, when it is below the minimum payout (or not above zero): not due, brought forward on the next statement. */
  carried_forward: string;
  /** What is to be paid: total − carried_forward. */
  due: string;
  /** The application's minimum payout the statement was (open: is) computed with. */
  min_payout: string;
  approved_at?: string;
  approved_by?: string;
  payment?: StatementPayment;
}

/** A statement as stored once approved: frozen, and only its payment changes. */
export type FrozenStatement = Statement & { status: 'approved' | 'paid'; approved_at: string; approved_by: string };

export const statementLimits = {
  /** |amount| of a manual adjustment. */
  adjustmentMax: '1000000',
  reasonMax: 200,
  referenceMax: 100,
  minPayoutMax: '1000000',
  /** Manual adjustments on one month's statement. */
  adjustmentsPerMonth: 100,
  /** Months a statement looks back for late activity (and the listing shows), the month itself included: one report of at most 366 days. */
  windowMonths: 12,
} as const;

const monthPattern = /^(\d{4})-(0[1-9]|1[0-2])$/;

export const isMonth = (value: unknown): value is string => typeof value === 'string' && monthPattern.test(value) && value >= '2000-01';

/** The month `count` months after `month` (before, when negative). */
export function addMonths(month: string, count: number): string {
  const [year, mm] = month.split('-').map(Number);
  const index = year * 12 + (mm - 1) + count;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

export const firstDayOf = (month: string) => `${month}-01`;

export function lastDayOf(month: string): string {
  const [year, mm] = month.split('-').map(Number);
  return new Date(Date.UTC(year, mm, 0)).toISOString().slice(0, 10);
}

export const monthOf = (at: Date | string) => (typeof at === 'string' ? at.slice(0, 7) : at.toISOString().slice(0, 7));

/** The months from `from` to `to`, both included. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (let month = from; month <= to; month = addMonths(month, 1)) months.push(month);
  return months;
}

/** What the report says a month earned: its days' CPA and qualified FTDs, and its settled RevShare payable. */
export function earnedIn(report: Pick<AffiliateReport, 'days' | 'months'>, month: string): { cpa: string; revshare: string; qualified_ftds: number } {
  const days = report.days.filter((day) => day.date.startsWith(`${month}-`));
  return {
    cpa: sum(days.map((day) => day.cpa)),
    revshare: sum((report.months ?? []).filter((settled) => settled.month === month).map((settled) => settled.payable)),
    qualified_ftds: days.reduce((total, day) => total + day.qualified_ftds, 0),
  };
}

/** The reason of the late line for an approved month, the same on every statement that carries one. */
export const lateReason = (month: string) => `late activity for ${month}`;

/**
 * The late lines of the statement after the last approved one: for each
 * approved month, what it earns now − what its snapshot froze − the late
 * lines for it that later approved statements already carried. Months whose
 * difference is zero have no line.
 */
export function lateAdjustments(frozen: readonly FrozenStatement[], earnedNow: (month: string) => { cpa: string; revshare: string }): StatementAdjustment[] {
  return [...frozen]
    .sort((a, b) => a.month.localeCompare(b.month))
    .flatMap((statement) => {
      const now = earnedNow(statement.month);
      const carried = frozen.flatMap((later) => later.adjustments.filter((line) => line.kind === 'late' && line.for_month === statement.month));
      const amount = new Decimal(now.cpa)
        .plus(now.revshare)
        .minus(statement.cpa)
        .minus(statement.revshare)
        .minus(sum(carried.map((line) => line.amount)));
      if (amount.isZero()) return [];
      return [
        {
          adjustment_id: `late-${statement.month}`,
          kind: 'late' as const,
          amount: money(amount),
          reason: lateReason(statement.month),
          for_month: statement.month,
        },
      ];
    });
}

/** Totals a statement's lines against the minimum payout: below it (or at most zero), the whole total is carried forward and nothing is due. */
export function settleStatement(
  lines: Pick<Statement, 'cpa' | 'revshare' | 'adjustments' | 'brought_forward'>,
  minPayout: string,
): Pick<Statement, 'total' | 'carried_forward' | 'due'> {
  const total = new Decimal(sum([lines.cpa, lines.revshare, lines.brought_forward, ...lines.adjustments.map((line) => line.amount)]));
  const carried = total.lte(0) || total.lt(minPayout) ? total : new Decimal(0);
  return { total: money(total), carried_forward: money(carried), due: money(total.minus(carried)) };
}

/** The exact sum of money strings, two places. */
export const sumMoney = (values: readonly string[]) => sum([...values]);

export const isPositive = (value: string) => new Decimal(value).gt(0);
export const isZero = (value: string) => new Decimal(value).isZero();

/** What is approved and not yet paid: the balance the affiliate is owed. */
export const balanceOf = (statements: readonly Pick<Statement, 'status' | 'due'>[]) => sum(statements.filter((s) => s.status === 'approved').map((s) => s.due));

// ---- input rules ---------------------------------------------------------

const amountPattern = /^-?\d{1,7}(\.\d{1,2})?$/;
const visibleText = new RegExp(identifierPattern, 'u');

/** A manual adjustment's amount: a decimal with at most 2 places, not zero, at most 1,000,000 either way; normalised to 2 places. */
export function adjustmentAmountProblems(amount: unknown): string[] {
  if (typeof amount !== 'string' || !amountPattern.test(amount.trim())) return ['amount must be a decimal with at most 2 places, e.g. "-25.50"'];
  const value = new Decimal(amount.trim());
  if (value.isZero()) return ['amount must not be zero'];
  if (value.abs().gt(statementLimits.adjustmentMax)) return [`amount must be between -${statementLimits.adjustmentMax} and ${statementLimits.adjustmentMax}`];
  return [];
}

/** A bounded line of text a person typed (a reason, a reference): 1 to `max` characters after trimming, nothing invisible. */
export function textProblems(field: string, value: unknown, max: number): string[] {
  if (typeof value !== 'string' || value.trim().length === 0) return [`${field} is required`];
  if (value.trim().length > max) return [`${field} must be at most ${max} characters`];
  if (!visibleText.test(value)) return [`${field} must not contain control or invisible characters`];
  return [];
}

export const normalAmount = (amount: string) => money(amount.trim());

/** The application's minimum payout: a decimal from 0 to 1,000,000 with at most 2 places. */
export function minPayoutProblems(value: unknown): string[] {
  if (typeof value !== 'string' || !/^\d{1,7}(\.\d{1,2})?$/.test(value.trim()))
    return ['min_payout must be a decimal from 0 with at most 2 places, e.g. "100"'];
  if (new Decimal(value.trim()).gt(statementLimits.minPayoutMax)) return [`min_payout must be at most ${statementLimits.minPayoutMax}`];
  return [];
}

export const defaultMinPayout = '0.00';

/** A date a payment was made: a real YYYY-MM-DD, not after `today`. */
export function paidAtProblems(value: unknown, today: string): string[] {
  const time = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (typeof value !== 'string' || Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) {
    return ['paid_at must be a date YYYY-MM-DD'];
  }
  return value > today ? ['paid_at must not be in the future'] : [];
}

// ---- the store ---------------------------------------------------------------

/** A manual adjustment as stored, on its month (`adj#<affiliate_id>#<YYYY-MM>#<adjustment_id>`). */
export type ManualAdjustment = StatementAdjustment & { kind: 'manual'; created_by: string; created_at: string };

export interface StatementStore extends StatementLock {
  /** The affiliate's approved and paid statements, oldest first. */
  frozen(appId: string, affiliateId: string): Promise<FrozenStatement[]>;
  get(appId: string, affiliateId: string, month: string): Promise<FrozenStatement | undefined>;
  /** The approved statements of `month` of these affiliates (paid ones too). */
  ofMonth(appId: string, month: string, affiliateIds: readonly string[]): Promise<FrozenStatement[]>;
  /** A month's manual adjustments, oldest first, and how many were ever added (what an approval is conditional on). */
  adjustments(appId: string, affiliateId: string, month: string): Promise<{ adjustments: ManualAdjustment[]; added: number }>;
  /** Adds one on the condition that the month is not approved and has fewer than `max`: `closed` or `full` otherwise. */
  addAdjustment(appId: string, affiliateId: string, month: string, adjustment: ManualAdjustment, max: number): Promise<'added' | 'closed' | 'full'>;
  /**
   * Freezes the statement on the conditions that it is not approved yet (`taken`), that its month has exactly `added`
   * adjustments (`changed`: one came in while it was computed), and that the affiliate's last approved month is still
   * `previous` (none when undefined): `gap` when another approval landed meanwhile, so of two first approvals of
   * different months one wins.
   */
  approve(appId: string, statement: FrozenStatement, conditions: { added: number; previous?: string }): Promise<'approved' | 'taken' | 'changed' | 'gap'>;
  /** Records the payment on the condition that the statement is approved and not paid; undefined otherwise. */
  markPaid(appId: string, affiliateId: string, month: string, payment: StatementPayment): Promise<FrozenStatement | undefined>;
}
