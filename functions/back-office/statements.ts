/**
 * Monthly statements, adjustments and payments (docs/api.md, "Statements,
 * adjustments and payments"), whoever asks: the console, the portal, the
 * admin command line. A month's figures are the affiliate report's
 * (affiliateReport, a black box here); an approved statement is frozen, and
 * what its month earns later is a late line on the next statement.
 * Every change is audited here.
 */
import { randomUUID } from 'node:crypto';
import { defaultCurrency, type AffiliateReport } from '../domain/affiliate-program';
import type { AffiliateStore, AffiliateSummary } from '../domain/affiliates';
import type { AppStore } from '../domain/apps';
import type { AuditActor } from '../domain/audit';
import { Conflict, NotFound, ValidationError } from '../domain/errors';
import { checkPayoutDetails, type PayoutDetails, type PayoutStore } from '../domain/payouts';
import {
  addMonths,
  adjustmentAmountProblems,
  balanceOf,
  defaultMinPayout,
  earnedIn,
  firstDayOf,
  isMonth,
  isPositive,
  isZero,
  lastDayOf,
  lateAdjustments,
  minPayoutProblems,
  monthOf,
  monthsBetween,
  normalAmount,
  paidAtProblems,
  settleStatement,
  statementLimits,
  sumMoney,
  textProblems,
  type FrozenStatement,
  type ManualAdjustment,
  type Statement,
  type StatementStore,
} from '../domain/statements';
import { audit } from './audit';
import type { BackOffice } from './ports';

/** What reading statements takes. */
export interface StatementReadPorts extends Pick<BackOffice, 'now'> {
  apps: Pick<AppStore, 'get'>;
  affiliates: Pick<AffiliateStore, 'get'>;
  statements: StatementStore;
  /** affiliateReport(office) (back-office/affiliate-report.ts): the month's figures. */
  report: (appId: string, affiliateId: string, from: string, to: string) => Promise<AffiliateReport>;
}

/** What changing them takes too. */
export interface StatementPorts extends StatementReadPorts, Pick<BackOffice, 'audit'> {
  apps: Pick<AppStore, 'get' | 'update'>;
  affiliates: Pick<AffiliateStore, 'get' | 'list'>;
  payouts: PayoutStore;
}

const nowIn = (ports: Pick<StatementReadPorts, 'now'>) => ports.now?.() ?? new Date();

async function requireAffiliate(ports: Pick<StatementReadPorts, 'affiliates'>, appId: string, affiliateId: string): Promise<AffiliateSummary> {
  const affiliate = await ports.affiliates.get(appId, affiliateId);
  if (!affiliate) throw new NotFound('Not Found');
  return affiliate;
}

function requireMonth(month: string): string {
  if (!isMonth(month)) throw new ValidationError(['month must be YYYY-MM'], 'request is invalid');
  return month;
}

/** The application's minimum payout, "0.00" unless set. */
export async function minPayoutOf(ports: Pick<StatementReadPorts, 'apps'>, appId: string): Promise<string> {
  return (await ports.apps.get(appId))?.min_payout ?? defaultMinPayout;
}

/** An affiliate's statements: the months shown, newest first, the balance (approved, not paid), and the last approved month. */
export interface StatementList {
  affiliate_id: string;
  currency: string;
  min_payout: string;
  balance: string;
  last_closed_month: string | null;
  statements: Statement[];
}

/**
 * The affiliate's statements up to `until` (default: this month): every
 * approved or paid one, and the open months of the 12 ending at `until`
 * from the affiliate's first month. The open ones are computed from one
 * report over those 12 months, which also recomputes the approved ones among
 * them for late activity.
 */
export function affiliateStatements(ports: StatementReadPorts) {
  return async (appId: string, affiliateId: string, until?: string, options: { always?: string } = {}): Promise<StatementList> => {
    const affiliate = await requireAffiliate(ports, appId, affiliateId);
    const last = until === undefined ? monthOf(nowIn(ports)) : requireMonth(until);
    const first = addMonths(last, 1 - statementLimits.windowMonths);
    const [app, frozen] = await Promise.all([ports.apps.get(appId), ports.statements.frozen(appId, affiliateId)]);
    const currency = app?.currency ?? defaultCurrency;
    const minPayout = app?.min_payout ?? defaultMinPayout;
    const byMonth = new Map(frozen.map((statement) => [statement.month, statement]));
    const openMonths = monthsBetween(first, last).filter((month) => !byMonth.has(month));
    const statements: Statement[] = [...frozen.filter((statement) => statement.month <= last)];
    if (openMonths.length > 0) {
      const report = await ports.report(appId, affiliateId, firstDayOf(first), lastDayOf(last));
      const inWindow = frozen.filter((statement) => statement.month >= first);
      const manual = await Promise.all(openMonths.map((month) => ports.statements.adjustments(appId, affiliateId, month)));
      // Since the affiliate joined, every month; before, only those with something on them (activity is dated by the events).
      const since = monthOf(affiliate.created_at);
      openMonths.forEach((month, i) => {
        const previous = byMonth.get(addMonths(month, -1));
        const earned = earnedIn(report, month);
        const shown = month >= since || month === options.always || previous || manual[i].added > 0 || earned.cpa !== '0.00' || earned.revshare !== '0.00';
        if (!shown) return;
        statements.push(
          openStatement({
            affiliateId,
            month,
            currency,
            minPayout,
            earned,
            manual: manual[i].adjustments,
            // Late lines and what is brought forward go on the statement right after an approved one only.
            late: previous ? lateAdjustments(inWindow, (m) => earnedIn(report, m)) : [],
            broughtForward: previous?.carried_forward ?? '0.00',
          }),
        );
      });
    }
    statements.sort((a, b) => b.month.localeCompare(a.month));
    const lastClosed = frozen.length > 0 ? frozen[frozen.length - 1].month : null;
    return { affiliate_id: affiliateId, currency, min_payout: minPayout, balance: balanceOf(frozen), last_closed_month: lastClosed, statements };
  };
}

function openStatement(input: {
  affiliateId: string;
  month: string;
  currency: string;
  minPayout: string;
  earned: { cpa: string; revshare: string; qualified_ftds: number };
  manual: ManualAdjustment[];
  late: Statement['adjustments'];
  broughtForward: string;
}): Statement {
  const lines = {
    cpa: input.earned.cpa,
    revshare: input.earned.revshare,
    adjustments: [...input.late, ...input.manual],
    brought_forward: input.broughtForward,
  };
  return {
    affiliate_id: input.affiliateId,
    month: input.month,
    currency: input.currency,
    status: 'open',
    qualified_ftds: input.earned.qualified_ftds,
    ...lines,
    ...settleStatement(lines, input.minPayout),
    min_payout: input.minPayout,
  };
}

/** One month's statement (open ones computed now). */
export function affiliateStatement(ports: StatementReadPorts) {
  const list = affiliateStatements(ports);
  return async (appId: string, affiliateId: string, month: string): Promise<Statement> => {
    requireMonth(month);
    const frozen = await ports.statements.get(appId, affiliateId, month);
    if (frozen) {
      await requireAffiliate(ports, appId, affiliateId);
      return frozen;
    }
    const statement = (await list(appId, affiliateId, month, { always: month })).statements.find((s) => s.month === month);
    if (!statement) throw new NotFound(`no statement for ${month}: before the affiliate's first month`);
    return statement;
  };
}

/**
 * Approves a month that has ended, the one after the last approved (the
 * first approval may be any ended month with no earlier month of the
 * statements' window owing anything, which could never be approved after it):
 * its statement is frozen as it is computed now. Conditional: of two approvals at once one wins, the other is
 * 409; an adjustment added meanwhile makes it 409 too (approve again).
 */
export function approveStatement(ports: StatementPorts) {
  const list = affiliateStatements(ports);
  return async (appId: string, actor: AuditActor, affiliateId: string, month: string): Promise<FrozenStatement> => {
    requireMonth(month);
    const now = nowIn(ports);
    if (month >= monthOf(now)) throw new Conflict(`${month} has not ended: only ended months can be approved`);
    const lastClosed = await ports.statements.lastClosedMonth(appId, affiliateId);
    if (lastClosed !== undefined && month <= lastClosed) {
      const frozen = await ports.statements.get(appId, affiliateId, month);
      if (frozen) throw new Conflict(`${month} is ${frozen.status} already`);
      throw new Conflict(`${month} is before ${lastClosed}, which is approved: months are approved in order`);
    }
    if (lastClosed !== undefined && month !== addMonths(lastClosed, 1)) {
      throw new Conflict(`approve ${addMonths(lastClosed, 1)} first: months are approved in order`);
    }
    const { added } = await ports.statements.adjustments(appId, affiliateId, month);
    const listed = await list(appId, affiliateId, month, { always: month });
    const statement = listed.statements.find((s) => s.month === month);
    if (!statement) throw new NotFound(`no statement for ${month}: before the affiliate's first month`);
    // Newest first: the earliest open month with a total, which approving this one would leave unpayable.
    const owing = lastClosed === undefined ? listed.statements.filter((s) => s.month < month && !isZero(s.total)).at(-1) : undefined;
    if (owing) {
      throw new Conflict(
        `approve ${owing.month} first: its statement has a total of ${owing.total} ${owing.currency}, and months are approved in order (approve and mark paid a month settled outside urm)`,
      );
    }
    const frozen: FrozenStatement = { ...statement, status: 'approved', approved_at: now.toISOString(), approved_by: actor.email };
    const outcome = await ports.statements.approve(appId, frozen, { added, previous: lastClosed });
    if (outcome === 'taken') throw new Conflict(`${month} is approved already`);
    if (outcome === 'changed') throw new Conflict(`${month} changed while it was being approved: look at it again`);
    if (outcome === 'gap') throw new Conflict('another month was approved meanwhile: look at the statements again');
    await audit(ports)({
      appId,
      actor,
      action: 'statement.approved',
      target: `affiliate:${affiliateId}`,
      details: { month, total: frozen.total, due: frozen.due, carried_forward: frozen.carried_forward },
    });
    return frozen;
  };
}

/** A manual adjustment on an open month (not one in the future), audited as `affiliate.adjustment_added`. */
export function addAdjustment(ports: StatementPorts) {
  return async (
    appId: string,
    actor: AuditActor,
    affiliateId: string,
    month: string,
    input: { amount: unknown; reason: unknown },
  ): Promise<ManualAdjustment> => {
    const problems = [
      ...(isMonth(month) ? [] : ['month must be YYYY-MM']),
      ...adjustmentAmountProblems(input.amount),
      ...textProblems('reason', input.reason, statementLimits.reasonMax),
    ];
    if (problems.length > 0) throw new ValidationError(problems, 'request is invalid');
    await requireAffiliate(ports, appId, affiliateId);
    const now = nowIn(ports);
    if (month > monthOf(now)) throw new Conflict(`${month} has not begun: adjust an open month`);
    const adjustment: ManualAdjustment = {
      adjustment_id: randomUUID(),
      kind: 'manual',
      amount: normalAmount(input.amount as string),
      reason: (input.reason as string).trim(),
      created_by: actor.email,
      created_at: now.toISOString(),
    };
    const outcome = await ports.statements.addAdjustment(appId, affiliateId, month, adjustment, statementLimits.adjustmentsPerMonth);
    if (outcome === 'closed') throw new Conflict(`${month} is approved: its statement is final, adjust the open month instead`);
    if (outcome === 'full') throw new Conflict(`${month} has ${statementLimits.adjustmentsPerMonth} adjustments already`);
    await audit(ports)({
      appId,
      actor,
      action: 'affiliate.adjustment_added',
      target: `affiliate:${affiliateId}`,
      details: { month, adjustment_id: adjustment.adjustment_id, amount: adjustment.amount, reason: adjustment.reason },
    });
    return adjustment;
  };
}

/** Records the payment of an approved statement with something due; a paid one is final (409). Audited as `statement.paid`. */
export function markStatementPaid(ports: StatementPorts) {
  return async (
    appId: string,
    actor: AuditActor,
    affiliateId: string,
    month: string,
    input: { reference: unknown; paid_at: unknown },
  ): Promise<FrozenStatement> => {
    const today = nowIn(ports).toISOString().slice(0, 10);
    const problems = [
      ...(isMonth(month) ? [] : ['month must be YYYY-MM']),
      ...textProblems('reference', input.reference, statementLimits.referenceMax),
      ...paidAtProblems(input.paid_at, today),
    ];
    if (problems.length > 0) throw new ValidationError(problems, 'request is invalid');
    await requireAffiliate(ports, appId, affiliateId);
    const statement = await ports.statements.get(appId, affiliateId, month);
    if (!statement) throw new Conflict(`${month} is not approved: approve it before paying it`);
    if (statement.status === 'paid') throw new Conflict(`${month} is paid already: a paid statement is final`);
    if (!isPositive(statement.due)) throw new Conflict(`${month} has nothing due: its total is carried forward`);
    const payment = { reference: (input.reference as string).trim(), paid_at: input.paid_at as string, paid_by: actor.email };
    const paid = await ports.statements.markPaid(appId, affiliateId, month, payment);
    if (!paid) throw new Conflict(`${month} is paid already: a paid statement is final`);
    await audit(ports)({ appId, actor, action: 'statement.paid', target: `affiliate:${affiliateId}`, details: { month, due: paid.due, ...payment } });
    return paid;
  };
}

/** Sets the application's minimum payout (open statements use it at once; approved ones keep theirs). Audited as `payout.minimum_set`. */
export async function setMinPayout(ports: Pick<StatementPorts, 'apps' | 'audit' | 'now'>, appId: string, actor: AuditActor, value: unknown): Promise<string> {
  const problems = minPayoutProblems(value);
  if (problems.length > 0) throw new ValidationError(problems, 'request is invalid');
  const app = await ports.apps.get(appId);
  if (!app) throw new NotFound(`no application ${appId}`);
  const min = normalAmount(value as string);
  const from = app.min_payout ?? defaultMinPayout;
  if (from === min) return min;
  await ports.apps.update(appId, { min_payout: min });
  await audit(ports)({ appId, actor, action: 'payout.minimum_set', target: `app:${appId}`, details: { from, to: min } });
  return min;
}

/** The affiliate's payout method and details, checked; the problems name their fields (never logged: personal data). */
export async function setPayoutDetails(
  ports: Pick<StatementPorts, 'payouts'>,
  appId: string,
  affiliateId: string,
  input: Record<string, unknown>,
): Promise<{ payout?: PayoutDetails; problems: Record<string, string> }> {
  const checked = checkPayoutDetails(input);
  if (!checked.payout) return checked;
  if (!(await ports.payouts.set(appId, affiliateId, checked.payout))) throw new NotFound('Not Found');
  return checked;
}

/** The CSV's columns, one row per approved (or paid) statement of the month. */
export const statementCsvColumns = [
  'month',
  'affiliate_id',
  'username',
  'email',
  'currency',
  'status',
  'qualified_ftds',
  'cpa',
  'revshare',
  'adjustments',
  'brought_forward',
  'total',
  'carried_forward',
  'due',
  'payout_method',
  'approved_at',
  'approved_by',
  'payment_reference',
  'paid_at',
] as const;

/** A cell as spreadsheets read it safely: quoted, and text that could start a formula led by an apostrophe. */
const cell = (value: string | number) => {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
};

/** The approved statements of `month` for all the application's affiliates, for accounting. */
export function statementsCsv(ports: StatementPorts) {
  return async (appId: string, month: string): Promise<{ fileName: string; body: string; rows: number }> => {
    requireMonth(month);
    const affiliates = await ports.affiliates.list(appId);
    const statements = await ports.statements.ofMonth(
      appId,
      month,
      affiliates.map((a) => a.affiliate_id),
    );
    const byId = new Map(affiliates.map((a) => [a.affiliate_id, a]));
    const methods = await ports.payouts.getMany(
      appId,
      statements.map((s) => s.affiliate_id),
    );
    const lines = statements.map((s) => {
      const who = byId.get(s.affiliate_id);
      return [
        s.month,
        s.affiliate_id,
        who?.username ?? '',
        who?.email ?? '',
        s.currency,
        s.status,
        s.qualified_ftds,
        s.cpa,
        s.revshare,
        sumMoney(s.adjustments.map((line) => line.amount)),
        s.brought_forward,
        s.total,
        s.carried_forward,
        s.due,
        methods.get(s.affiliate_id)?.payout_method ?? '',
        s.approved_at,
        s.approved_by,
        s.payment?.reference ?? '',
        s.payment?.paid_at ?? '',
      ]
        .map(cell)
        .join(',');
    });
    return { fileName: `statements-${month}.csv`, body: `${[statementCsvColumns.join(','), ...lines].join('\r\n')}\r\n`, rows: lines.length };
  };
}
