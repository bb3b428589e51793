/**
 * Statements over in-memory ports and a report the test sets: the month's
 * lines, approval (ended months, in order, once), late activity on the next
 * statement, the minimum payout's carry-forward, manual adjustments, payment,
 * the accounting CSV.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import {
  addAdjustment,
  affiliateStatement,
  affiliateStatements,
  approveStatement,
  markStatementPaid,
  setMinPayout,
  setPayoutDetails,
  statementsCsv,
  type StatementPorts,
} from '../../../functions/back-office/statements';
import type { AffiliateReport } from '../../../functions/domain/affiliate-program';
import type { AuditActor } from '../../../functions/domain/audit';
import { Conflict, ValidationError } from '../../../functions/domain/errors';
import { addMonths, lastDayOf, lateReason } from '../../../functions/domain/statements';
import { MemoryAffiliateStore, MemoryAppStore } from '../../support/affiliates';
import { FakeClock, MemoryAuditLog } from '../../support/enterprise';
import { MemoryPayoutStore, MemoryStatementStore } from '../../support/statements';

const appId = 'app_1';
const aff = 'aff_1';
const operator: AuditActor = { user_id: 'usr_1', email: 'ops@casino.example' };

/** What each day earned in CPA (qualified FTDs at 50.00) and each month's RevShare payable: the report's answer, set by the test. */
let cpaByDay: Record<string, number>;
let payableByMonth: Record<string, string>;
let reports: { from: string; to: string }[];

async function report(_app: string, affiliateId: string, from: string, to: string): Promise<AffiliateReport> {
  reports.push({ from, to });
  const days = Object.entries(cpaByDay)
    .filter(([day]) => day >= from && day <= to)
    .map(([date, ftds]) => ({ date, qualified_ftds: ftds, cpa: (ftds * 50).toFixed(2) }));
  const months = Object.entries(payableByMonth).map(([month, payable]) => ({ month, payable }));
  return { affiliate_id: affiliateId, currency: 'EUR', from, to, days, links: [], months } as unknown as AffiliateReport;
}

let ports: StatementPorts & { statements: MemoryStatementStore; audit: MemoryAuditLog; payouts: MemoryPayoutStore };
let clock: FakeClock;

beforeEach(async () => {
  cpaByDay = {};
  payableByMonth = {};
  reports = [];
  clock = new FakeClock(new Date('2026-11-21T10:00:00.000Z'));
  const affiliates = new MemoryAffiliateStore();
  await affiliates.register({
    app_id: appId,
    affiliate_id: aff,
    email: 'ada@example.com',
    username: 'ada',
    first_name: 'Ada',
    last_name: 'Lovelace',
    password_hash: 'x',
    created_at: '2026-06-02T00:00:00.000Z',
  });
  ports = {
    apps: new MemoryAppStore([{ app_id: appId, name: 'Casino', created_at: '2026-01-01T00:00:00.000Z', currency: 'EUR' }]),
    affiliates,
    statements: new MemoryStatementStore(),
    payouts: new MemoryPayoutStore(),
    audit: new MemoryAuditLog(),
    now: clock.now,
    report,
  };
});

const statementOf = (month: string) => affiliateStatement(ports)(appId, aff, month);
const approve = (month: string) => approveStatement(ports)(appId, operator, aff, month);

describe("a month's statement", () => {
  test('lists CPA by qualified FTD and the RevShare payable, and totals them with the adjustments', async () => {
    cpaByDay = { '2026-09-03': 2, '2026-09-20': 1, '2026-10-01': 1 };
    payableByMonth = { '2026-09': '12.34' };
    await addAdjustment(ports)(appId, operator, aff, '2026-09', { amount: '-4.34', reason: 'chargeback of player 42' });

    const statement = await statementOf('2026-09');

    expect(statement).toMatchObject({ month: '2026-09', status: 'open', qualified_ftds: 3, cpa: '150.00', revshare: '12.34', total: '158.00', due: '158.00' });
    expect(statement.adjustments).toEqual([
      expect.objectContaining({ kind: 'manual', amount: '-4.34', reason: 'chargeback of player 42', created_by: operator.email }),
    ]);
  });

  test('one report over the twelve months up to the month computes the whole listing', async () => {
    await affiliateStatements(ports)(appId, aff);

    expect(reports).toEqual([{ from: '2025-12-01', to: '2026-11-30' }]);
  });
});

describe('approving', () => {
  test('freezes the statement: later activity for the month leaves it as it was', async () => {
    cpaByDay = { '2026-09-03': 1 };
    await approve('2026-09');
    cpaByDay = { '2026-09-03': 1, '2026-09-28': 2 };

    expect(await statementOf('2026-09')).toMatchObject({ status: 'approved', cpa: '50.00', total: '50.00', approved_by: operator.email });
  });

  test('puts late activity on the next statement as an adjustment with its reason, once', async () => {
    cpaByDay = { '2026-09-03': 1 };
    await approve('2026-09');
    cpaByDay = { '2026-09-03': 1, '2026-09-28': 2, '2026-10-05': 1 };

    const october = await statementOf('2026-10');
    await approve('2026-10');
    const november = await statementOf('2026-11');

    expect(october.adjustments).toEqual([expect.objectContaining({ kind: 'late', amount: '100.00', reason: lateReason('2026-09'), for_month: '2026-09' })]);
    expect(october.total).toBe('150.00');
    expect(november.adjustments).toEqual([]);
  });

  test('a late negative month (RevShare down) is a negative line', async () => {
    payableByMonth = { '2026-09': '80.00' };
    await approve('2026-09');
    payableByMonth = { '2026-09': '55.50' };

    expect((await statementOf('2026-10')).adjustments).toEqual([expect.objectContaining({ amount: '-24.50', reason: lateReason('2026-09') })]);
  });

  test('refuses a month that has not ended, a month twice, and a gap', async () => {
    await approve('2026-08');

    await expect(approve('2026-11')).rejects.toThrow(new Conflict('2026-11 has not ended: only ended months can be approved'));
    await expect(approve('2026-08')).rejects.toThrow(new Conflict('2026-08 is approved already'));
    await expect(approve('2026-10')).rejects.toThrow(new Conflict('approve 2026-09 first: months are approved in order'));
  });

  test('refuses a first approval that would leave an earlier month with a total unpayable', async () => {
    cpaByDay = { '2026-08-12': 1, '2026-10-03': 1 };

    await expect(approve('2026-10')).rejects.toThrow(
      new Conflict(
        'approve 2026-08 first: its statement has a total of 50.00 EUR, and months are approved in order (approve and mark paid a month settled outside urm)',
      ),
    );
    await approve('2026-08');
    await approve('2026-09');
    expect(await statementOf('2026-10')).toMatchObject({ status: 'open', total: '50.00' });
  });

  test('a first approval after months with nothing on them is allowed', async () => {
    cpaByDay = { '2026-10-03': 1 };

    await approve('2026-10');

    expect(await statementOf('2026-10')).toMatchObject({ status: 'approved', total: '50.00' });
  });

  test('of two approvals at once, one wins', async () => {
    const outcomes = await Promise.allSettled([approve('2026-09'), approve('2026-09')]);

    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(ports.audit.entries.filter((e) => e.action === 'statement.approved')).toHaveLength(1);
  });

  test('of two first approvals of different months at once, one wins and the other is refused', async () => {
    const outcomes = await Promise.allSettled([approve('2026-08'), approve('2026-10')]);

    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({
      reason: new Conflict('another month was approved meanwhile: look at the statements again'),
    });
    expect(ports.audit.entries.filter((e) => e.action === 'statement.approved')).toHaveLength(1);
  });

  test('an adjustment added while the statement was computed makes the approval refuse, not lose it', async () => {
    const added = ports.statements.adjustments.bind(ports.statements);
    ports.statements.adjustments = async (...args) => {
      const seen = await added(...args);
      await ports.statements.addAdjustment(
        appId,
        aff,
        '2026-09',
        { adjustment_id: 'x', kind: 'manual', amount: '1.00', reason: 'r', created_by: 'b', created_at: 'c' },
        100,
      );
      ports.statements.adjustments = added;
      return seen;
    };

    await expect(approve('2026-09')).rejects.toThrow(new Conflict('2026-09 changed while it was being approved: look at it again'));
  });

  test('is audited with the month and its total', async () => {
    cpaByDay = { '2026-09-03': 1 };
    await approve('2026-09');

    expect(ports.audit.entries).toEqual([
      expect.objectContaining({
        action: 'statement.approved',
        target: `affiliate:${aff}`,
        details: { month: '2026-09', total: '50.00', due: '50.00', carried_forward: '0.00' },
      }),
    ]);
  });
});

describe('the minimum payout', () => {
  test('below it the total is carried forward, not due, and brought forward on the next statement', async () => {
    await setMinPayout(ports, appId, operator, '100');
    cpaByDay = { '2026-09-03': 1, '2026-10-03': 1 };

    const september = await approve('2026-09');
    const october = await statementOf('2026-10');

    expect(september).toMatchObject({ total: '50.00', carried_forward: '50.00', due: '0.00', min_payout: '100.00' });
    expect(october).toMatchObject({ brought_forward: '50.00', total: '100.00', carried_forward: '0.00', due: '100.00' });
    await expect(markStatementPaid(ports)(appId, operator, aff, '2026-09', { reference: 'W-1', paid_at: '2026-11-02' })).rejects.toThrow(
      new Conflict('2026-09 has nothing due: its total is carried forward'),
    );
  });

  test('is a bounded decimal, audited when it changes', async () => {
    await expect(setMinPayout(ports, appId, operator, '-1')).rejects.toThrow(ValidationError);
    await expect(setMinPayout(ports, appId, operator, '1000000.01')).rejects.toThrow(ValidationError);
    await setMinPayout(ports, appId, operator, '50.5');
    await setMinPayout(ports, appId, operator, '50.50');

    expect(ports.audit.entries.map((e) => [e.action, e.details])).toEqual([['payout.minimum_set', { from: '0.00', to: '50.50' }]]);
  });
});

describe('manual adjustments', () => {
  test.each([
    ['0', 'amount must not be zero'],
    ['1.234', 'amount must be a decimal with at most 2 places, e.g. "-25.50"'],
    ['1e3', 'amount must be a decimal with at most 2 places, e.g. "-25.50"'],
    ['-1000000.01', 'amount must be between -1000000 and 1000000'],
  ])('refuse the amount %s', async (amount, message) => {
    await expect(addAdjustment(ports)(appId, operator, aff, '2026-09', { amount, reason: 'why' })).rejects.toMatchObject({ errors: [message] });
  });

  test('need a reason of at most 200 characters', async () => {
    await expect(addAdjustment(ports)(appId, operator, aff, '2026-09', { amount: '5', reason: '  ' })).rejects.toMatchObject({
      errors: ['reason is required'],
    });
    await expect(addAdjustment(ports)(appId, operator, aff, '2026-09', { amount: '5', reason: 'x'.repeat(201) })).rejects.toMatchObject({
      errors: ['reason must be at most 200 characters'],
    });
  });

  test('go on open months only, and are audited', async () => {
    await approve('2026-09');

    await expect(addAdjustment(ports)(appId, operator, aff, '2026-09', { amount: '5', reason: 'bonus' })).rejects.toThrow(Conflict);
    await expect(addAdjustment(ports)(appId, operator, aff, '2026-12', { amount: '5', reason: 'bonus' })).rejects.toThrow(Conflict);
    const added = await addAdjustment(ports)(appId, operator, aff, '2026-10', { amount: '5', reason: 'bonus' });
    expect(ports.audit.entries.at(-1)).toMatchObject({
      action: 'affiliate.adjustment_added',
      details: { month: '2026-10', adjustment_id: added.adjustment_id, amount: '5.00', reason: 'bonus' },
    });
  });
});

describe('payment', () => {
  test('records the reference, date and who; a paid statement is final', async () => {
    cpaByDay = { '2026-09-03': 1 };
    await approve('2026-09');

    const paid = await markStatementPaid(ports)(appId, operator, aff, '2026-09', { reference: 'WIRE-1', paid_at: '2026-11-20' });

    expect(paid).toMatchObject({ status: 'paid', payment: { reference: 'WIRE-1', paid_at: '2026-11-20', paid_by: operator.email } });
    await expect(markStatementPaid(ports)(appId, operator, aff, '2026-09', { reference: 'WIRE-2', paid_at: '2026-11-20' })).rejects.toThrow(
      new Conflict('2026-09 is paid already: a paid statement is final'),
    );
    expect((await affiliateStatements(ports)(appId, aff)).balance).toBe('0.00');
  });

  test('refuses an open month and a date in the future', async () => {
    await expect(markStatementPaid(ports)(appId, operator, aff, '2026-09', { reference: 'W', paid_at: '2026-11-20' })).rejects.toThrow(Conflict);
    await expect(markStatementPaid(ports)(appId, operator, aff, '2026-09', { reference: 'W', paid_at: '2026-11-22' })).rejects.toMatchObject({
      errors: ['paid_at must not be in the future'],
    });
    await expect(markStatementPaid(ports)(appId, operator, aff, '2026-09', { reference: 'W', paid_at: '2026-02-30' })).rejects.toMatchObject({
      errors: ['paid_at must be a date YYYY-MM-DD'],
    });
  });

  test('the balance is what is approved and not paid', async () => {
    cpaByDay = { '2026-08-03': 1, '2026-09-03': 2 };
    await approve('2026-08');
    await approve('2026-09');

    expect((await affiliateStatements(ports)(appId, aff)).balance).toBe('150.00');
  });
});

describe('payout details', () => {
  test('a valid IBAN is kept without spaces; a wrong one is named', async () => {
    const good = await setPayoutDetails(ports, appId, aff, { payout_method: 'bank_transfer', account_holder: 'Ada L', iban: 'DE89 3704 0044 0532 0130 00' });
    const bad = await setPayoutDetails(ports, appId, aff, { payout_method: 'bank_transfer', account_holder: 'Ada L', iban: 'DE89 3704 0044 0532 0130 01' });

    expect(good.payout).toEqual({ payout_method: 'bank_transfer', payout_details: { account_holder: 'Ada L', iban: 'DE89370400440532013000' } });
    expect(bad.problems).toEqual({ iban: 'iban is not a valid IBAN' });
  });

  test('each method names its missing fields, and an unknown method is refused', async () => {
    expect((await setPayoutDetails(ports, appId, aff, { payout_method: 'crypto', currency: 'DOGE' })).problems).toEqual({
      currency: 'currency must be one of USDT, USDC, BTC, ETH',
      network: 'network is required',
      wallet_address: 'wallet_address is required',
    });
    expect((await setPayoutDetails(ports, appId, aff, { payout_method: 'cheque' })).problems).toEqual({
      payout_method: 'payout_method must be one of bank_transfer, crypto, e_wallet',
    });
  });
});

describe("the month's CSV for accounting", () => {
  test('one row per approved statement, cells that cannot start a formula', async () => {
    cpaByDay = { '2026-09-03': 1 };
    await approve('2026-09');
    await ports.payouts.set(appId, aff, { payout_method: 'e_wallet', payout_details: { provider: 'Skrill', account: 'a@b.c' } });

    const csv = await statementsCsv(ports)(appId, '2026-09');

    expect(csv.fileName).toBe('statements-2026-09.csv');
    expect(csv.body.split('\r\n')[1]).toBe(
      '"2026-09","aff_1","ada","ada@example.com","EUR","approved","1","50.00","0.00","0.00","0.00","50.00","0.00","50.00","e_wallet","2026-11-21T10:00:00.000Z","ops@casino.example","",""',
    );
    expect((await statementsCsv(ports)(appId, '2026-08')).rows).toBe(0);
  });
});

describe('months', () => {
  test('add across years and know their last day', () => {
    expect([addMonths('2026-11', 2), addMonths('2026-01', -1), lastDayOf('2028-02'), lastDayOf('2026-02')]).toEqual([
      '2027-01',
      '2025-12',
      '2028-02-29',
      '2026-02-28',
    ]);
  });
});
