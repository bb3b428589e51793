import { describe, expect, test } from '@jest/globals';
import type { Plan } from '../../../functions/domain/affiliate-program';
import { affiliateReportOf, carriedInto, dealDays, planOnOf, type DealPlan } from '../../../functions/domain/commission';
import { checkDealStart, dealOn, dealsOf, periodsWithin, type Deal } from '../../../functions/domain/deals';
import { ValidationError } from '../../../functions/domain/errors';
import { describeDeal } from '../../../functions/domain/plans';
import { dayRow, ftdRow } from '../../support/affiliates';

const version = (version: number, terms: Pick<Plan, 'cpa' | 'revshare'>): Plan => ({
  app_id: 'app_1',
  plan_id: 'plan_1',
  name: 'Hybrid',
  created_at: '2026-01-01T00:00:00Z',
  version,
  ...terms,
});
const v1 = version(1, { cpa: { amount: '50.00', min_deposit: '20.00' }, revshare: { percent: '25', carry_over: true } });
const v2 = version(2, { cpa: { amount: '30.00', min_deposit: '40.00' }, revshare: { percent: '10', carry_over: false } });
const deal = (plan: Plan, from: string, assigned_at = `${from}T09:00:00Z`): Deal => ({ plan_id: plan.plan_id, plan_version: plan.version!, from, assigned_at });

/** The affiliate on v1 since 1 January, moved to v2 on 15 March. */
const deals: DealPlan[] = [
  { deal: deal(v1, '2026-01-01'), plan: v1 },
  { deal: deal(v2, '2026-03-15'), plan: v2 },
];

/** Every day of Q1 2026: one FTD of 35.00 (qualifies under v1's minimum of 20, not under v2's 40) and NGR 100. */
const q1 = (() => {
  const days = [];
  const ftds = [];
  for (let day = new Date('2026-01-01T00:00:00Z'); day < new Date('2026-04-01T00:00:00Z'); day.setUTCDate(day.getUTCDate() + 1)) {
    const date = day.toISOString().slice(0, 10);
    days.push(dayRow('aff_1', date, { ftds: 1, deposits: '35.00', bets: '100.00' }));
    ftds.push(ftdRow('aff_1', date, '35.00'));
  }
  return { days, ftds };
})();

const report = (from: string, to: string, dealPlans = deals) =>
  affiliateReportOf({ affiliateId: 'aff_1', currency: 'EUR', from, to, deals: dealPlans, ...q1, carriedIn: '0.00' });

describe('a plan change on 15 March', () => {
  test('leaves January and February as they were under the old deal alone', () => {
    const before = report('2026-01-01', '2026-02-28', [deals[0]]);

    const after = report('2026-01-01', '2026-02-28');

    expect(after.totals).toEqual(before.totals);
    expect(after.months).toEqual(before.months);
    // 59 days × (50.00 CPA + 25 % of 100.00).
    expect([after.totals.cpa, after.totals.revshare, after.totals.commission]).toEqual(['2950.00', '1475.00', '4425.00']);
  });

  test('March earns under the old terms for 1–14 and under the new for 15–31', () => {
    const march = report('2026-03-01', '2026-03-31');

    expect(march.days.filter((row) => row.date <= '2026-03-14').map((row) => [row.qualified_ftds, row.cpa, row.revshare])).toEqual(
      Array(14).fill([1, '50.00', '25.00']),
    );
    // 35.00 is below v2's minimum of 40.00: no CPA from the 15th; RevShare 10 %.
    expect(march.days.filter((row) => row.date >= '2026-03-15').map((row) => [row.qualified_ftds, row.cpa, row.revshare])).toEqual(
      Array(17).fill([0, '0.00', '10.00']),
    );
    expect([march.totals.cpa, march.totals.revshare]).toEqual(['700.00', '520.00']);
  });

  test('the totals stay the sums of the day rows, and the report names both deals, clipped to the range', () => {
    const march = report('2026-03-10', '2026-03-20');

    const cents = (field: 'cpa' | 'revshare') => march.days.reduce((total, row) => total + Math.round(Number(row[field]) * 100), 0);
    expect([Math.round(Number(march.totals.cpa) * 100), Math.round(Number(march.totals.revshare) * 100)]).toEqual([cents('cpa'), cents('revshare')]);
    expect(march.deals?.map(({ plan_version, from, to, description }) => ({ plan_version, from, to, description }))).toEqual([
      { plan_version: 1, from: '2026-03-10', to: '2026-03-14', description: 'CPA 50.00 (first deposit ≥ 20.00) + RevShare 25 % with carry-over' },
      { plan_version: 2, from: '2026-03-15', to: '2026-03-20', description: 'CPA 30.00 (first deposit ≥ 40.00) + RevShare 10 %' },
    ]);
    expect(march.plan_id).toBe('plan_1');
  });

  test('the trace names each day its deal, and a day before the first deal none', () => {
    const days = dealDays(
      deals.map((entry) => entry.deal),
      '2025-12-31',
      '2026-03-16',
    );

    expect(days[0]).toEqual({ date: '2025-12-31', plan_id: null, plan_version: null });
    expect(days.find((row) => row.date === '2026-03-14')).toEqual({ date: '2026-03-14', plan_id: 'plan_1', plan_version: 1 });
    expect(days.find((row) => row.date === '2026-03-15')).toEqual({ date: '2026-03-15', plan_id: 'plan_1', plan_version: 2 });
    expect(days).toHaveLength(76);
  });

  test('a month settles with the carry-over rule of the deal on its last day in the range', () => {
    const losing = [...q1.days.filter((row) => row.day >= '2026-03-01')].map((row) => ({ ...row, bets: '0', wins: '100.00' }));
    const input = { affiliateId: 'aff_1', currency: 'EUR', deals, days: losing, ftds: [], carriedIn: '0.00' };

    const toThe14th = affiliateReportOf({ ...input, from: '2026-03-01', to: '2026-03-14' });
    const wholeMonth = affiliateReportOf({ ...input, from: '2026-03-01', to: '2026-03-31' });

    // Up to the 14th the month ends under v1 (carry-over): its loss is carried out; on the 31st under v2: not.
    expect(toThe14th.months?.[0].carried_out).toBe('-350.00');
    expect(wholeMonth.months?.[0].carried_out).toBe('0.00');
  });

  test('what earlier months carry in is settled under their own deals', () => {
    const january = q1.days.filter((row) => row.day < '2026-02-01').map((row) => ({ ...row, bets: '0', wins: '10.00' }));

    expect(carriedInto(planOnOf(deals), january)).toBe('-77.50');
    expect(carriedInto(planOnOf([{ deal: deal(v2, '2026-01-01'), plan: v2 }]), january)).toBe('0.00');
  });
});

describe('an affiliate’s deals', () => {
  const affiliate = { created_at: '2026-01-10T08:00:00Z' };

  test('one stored with only a plan has that plan’s version 1 from the day it was created', () => {
    expect(dealsOf({ ...affiliate, plan_id: 'plan_1' })).toEqual([
      { plan_id: 'plan_1', plan_version: 1, from: '2026-01-10', assigned_at: '2026-01-10T08:00:00Z' },
    ]);
    expect(dealsOf(affiliate)).toEqual([]);
  });

  test('come oldest first, and a later assignment for the same day replaces the earlier', () => {
    const stored = [deal(v2, '2026-03-15', '2026-03-01T10:00:00Z'), deal(v1, '2026-01-10'), deal(v1, '2026-03-15', '2026-03-02T10:00:00Z')];

    expect(dealsOf({ ...affiliate, plan_id: 'plan_1', deals: stored }).map((d) => [d.from, d.plan_version])).toEqual([
      ['2026-01-10', 1],
      ['2026-03-15', 1],
    ]);
  });

  test('the deal on a day is the latest that started by then', () => {
    const list = deals.map((entry) => entry.deal);

    expect([dealOn(list, '2025-12-31'), dealOn(list, '2026-03-14')?.plan_version, dealOn(list, '2026-03-15')?.plan_version]).toEqual([undefined, 1, 2]);
    expect(periodsWithin(list, (d) => d.from, '2026-04-01', '2026-04-30').map((p) => [p.from, p.to])).toEqual([['2026-04-01', '2026-04-30']]);
  });
});

describe('the day a deal starts', () => {
  const rules = { today: '2026-03-20', createdDay: '2026-01-10' };
  const refusal = (from: string, extra: Partial<Parameters<typeof checkDealStart>[1]> = {}) => {
    try {
      checkDealStart(from, { ...rules, ...extra });
      return undefined;
    } catch (error) {
      return error instanceof ValidationError ? error.errors : error;
    }
  };

  test('may be today or any day ahead up to 366 days', () => {
    expect([refusal('2026-03-20'), refusal('2027-03-21')]).toEqual([undefined, undefined]);
    expect(refusal('2027-03-22')).toEqual(['from must be at most 366 days after today']);
  });

  test('may be in the past only after the last closed month, and never before the affiliate existed', () => {
    expect(refusal('2026-02-01')).toBeUndefined();
    expect(refusal('2026-02-28', { lastClosedMonth: '2026-02' })).toEqual(['from must be after 2026-02, the last month whose statement is approved']);
    expect(refusal('2026-03-01', { lastClosedMonth: '2026-02' })).toBeUndefined();
    expect(refusal('2026-01-09')).toEqual(['from must not be before the affiliate was created (2026-01-10)']);
  });

  test('must be a real day', () => {
    expect([refusal('2026-02-30'), refusal('20260301'), refusal('')]).toEqual(Array(3).fill(['from must be a date YYYY-MM-DD']));
  });
});

describe('a deal in words', () => {
  test('names the money in the currency, the minimum only when there is one', () => {
    expect(describeDeal(v1, 'EUR')).toBe('CPA €50.00 per first deposit of at least €20.00 + 25 % RevShare with carry-over');
    expect(describeDeal({ cpa: { amount: '10.00', min_deposit: '0.00' } }, 'CHF')).toBe('CPA 10.00 CHF per first deposit');
  });
});
