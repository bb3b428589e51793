import { describe, expect, test } from '@jest/globals';
import type { Plan } from '../../../functions/domain/affiliate-program';
import { affiliateReportOf, carriedInto, type ReportInput } from '../../../functions/domain/commission';
import { dayRow, ftdRow } from '../../support/affiliates';

const plan = (terms: Pick<Plan, 'cpa' | 'revshare'>): Plan => ({
  app_id: 'app_1',
  plan_id: 'plan_1',
  name: 'Plan',
  created_at: '2026-01-01T00:00:00Z',
  ...terms,
});
const cpa = plan({ cpa: { amount: '50.00', min_deposit: '20.00' } });
const revshare = (carry_over: boolean) => plan({ revshare: { percent: '25', carry_over } });
const hybrid = plan({ cpa: { amount: '50.00', min_deposit: '20.00' }, revshare: { percent: '25', carry_over: true } });

const report = (input: Partial<ReportInput> & Pick<ReportInput, 'from' | 'to'>) =>
  affiliateReportOf({ affiliateId: 'aff_1', currency: 'EUR', plan: undefined, days: [], ftds: [], carriedIn: '0.00', ...input });

describe('CPA', () => {
  test('pays the amount for each first deposit that reaches the minimum, on its day, and nothing for one below it', () => {
    const result = report({
      from: '2026-03-01',
      to: '2026-03-02',
      plan: cpa,
      days: [dayRow('aff_1', '2026-03-01', { ftds: 2, deposits: '39.99' }), dayRow('aff_1', '2026-03-02', { ftds: 1, deposits: '20' })],
      ftds: [ftdRow('aff_1', '2026-03-01', '19.99'), ftdRow('aff_1', '2026-03-01', '20.00'), ftdRow('aff_1', '2026-03-02', '20')],
    });

    expect(result.days.map((d) => [d.date, d.ftds, d.qualified_ftds, d.cpa, d.commission])).toEqual([
      ['2026-03-01', 2, 1, '50.00', '50.00'],
      ['2026-03-02', 1, 1, '50.00', '50.00'],
    ]);
    expect([result.totals.qualified_ftds, result.totals.cpa, result.totals.commission]).toEqual([2, '100.00', '100.00']);
  });

  test('a first deposit outside the range pays nothing in it', () => {
    const result = report({ from: '2026-03-02', to: '2026-03-02', plan: cpa, ftds: [ftdRow('aff_1', '2026-03-01', '100')] });

    expect(result.totals.cpa).toBe('0.00');
  });
});

describe('RevShare', () => {
  test('a day is the percent of its NGR (bets − wins − bonuses) over its links, exact, rounded half up to the cent', () => {
    const result = report({
      from: '2026-03-01',
      to: '2026-03-01',
      plan: plan({ revshare: { percent: '50', carry_over: false } }),
      // NGR 0.90 + 1.11 = 2.01, half of it 1.005: 1.01 (in floating point 2.01 × 0.5 rounds to 1.00).
      days: [dayRow('aff_1', '2026-03-01', { bets: '1.00', wins: '0.1' }), dayRow('aff_1', '2026-03-01', { link_id: 'l2', bets: '1.21', bonuses: '0.1' })],
    });

    expect([result.days[0].ngr, result.days[0].revshare]).toEqual(['2.01', '1.01']);
  });

  test('rounds each day on its own; the total is the sum of the rounded days', () => {
    const days = ['2026-03-01', '2026-03-02', '2026-03-03'].map((day) => dayRow('aff_1', day, { bets: '0.10' }));

    const result = report({ from: '2026-03-01', to: '2026-03-03', plan: revshare(false), days });

    expect(result.days.map((d) => d.revshare)).toEqual(['0.03', '0.03', '0.03']);
    expect([result.totals.ngr, result.totals.revshare, result.totals.commission]).toEqual(['0.30', '0.09', '0.09']);
  });

  test('a day the players won is negative, rounded half away from zero', () => {
    const result = report({ from: '2026-03-01', to: '2026-03-01', plan: revshare(false), days: [dayRow('aff_1', '2026-03-01', { wins: '0.10' })] });

    expect([result.days[0].ngr, result.days[0].revshare, result.days[0].commission]).toEqual(['-0.10', '-0.03', '-0.03']);
  });

  test('a month pays at least nothing: a negative month makes no negative commission', () => {
    const result = report({
      from: '2026-03-01',
      to: '2026-03-02',
      plan: revshare(false),
      days: [dayRow('aff_1', '2026-03-01', { bets: '100' }), dayRow('aff_1', '2026-03-02', { wins: '300' })],
    });

    expect(result.months).toEqual([
      { month: '2026-03', from: '2026-03-01', to: '2026-03-02', revshare: '-50.00', carried_in: '0.00', payable: '0.00', carried_out: '0.00' },
    ]);
    expect([result.totals.revshare, result.totals.commission]).toEqual(['-50.00', '0.00']);
  });

  test('with carry-over, a negative month is carried into the next ones until earnings cover it', () => {
    const days = [
      dayRow('aff_1', '2026-01-10', { wins: '400' }),
      dayRow('aff_1', '2026-02-10', { bets: '100' }),
      dayRow('aff_1', '2026-03-10', { bets: '1000' }),
    ];

    const result = report({ from: '2026-01-01', to: '2026-03-31', plan: revshare(true), days });

    expect(result.months!.map((m) => [m.month, m.revshare, m.carried_in, m.payable, m.carried_out])).toEqual([
      ['2026-01', '-100.00', '0.00', '0.00', '-100.00'],
      ['2026-02', '25.00', '-100.00', '0.00', '-75.00'],
      ['2026-03', '250.00', '-75.00', '175.00', '0.00'],
    ]);
    expect(result.totals.commission).toBe('175.00');
  });

  test('without carry-over, each month starts from nothing', () => {
    const days = [dayRow('aff_1', '2026-01-10', { wins: '400' }), dayRow('aff_1', '2026-02-10', { bets: '100' })];

    const result = report({ from: '2026-01-01', to: '2026-02-28', plan: revshare(false), days });

    expect(result.months!.map((m) => [m.month, m.carried_in, m.payable])).toEqual([
      ['2026-01', '0.00', '0.00'],
      ['2026-02', '0.00', '25.00'],
    ]);
    expect(result.totals.commission).toBe('25.00');
  });

  test('a range that cuts months settles each on its days within the range, starting from what was carried in', () => {
    const days = [
      dayRow('aff_1', '2026-01-14', { bets: '1000' }), // before the range: not counted
      dayRow('aff_1', '2026-01-15', { bets: '100' }),
      dayRow('aff_1', '2026-02-10', { bets: '40' }),
      dayRow('aff_1', '2026-02-11', { bets: '1000' }), // after the range: not counted
    ];

    const result = report({ from: '2026-01-15', to: '2026-02-10', plan: revshare(true), days, carriedIn: '-20.00' });

    expect(result.months!.map((m) => [m.month, m.from, m.to, m.revshare, m.carried_in, m.payable])).toEqual([
      ['2026-01', '2026-01-15', '2026-01-31', '25.00', '-20.00', '5.00'],
      ['2026-02', '2026-02-01', '2026-02-10', '10.00', '0.00', '10.00'],
    ]);
    expect(result.totals.commission).toBe('15.00');
  });

  test('what earlier months carry in is their negative balance settled month by month, and nothing once a month paid it off', () => {
    expect(carriedInto(revshare(true), [dayRow('aff_1', '2025-11-03', { wins: '100' }), dayRow('aff_1', '2025-12-03', { wins: '40' })])).toBe('-35.00');
    expect(carriedInto(revshare(true), [dayRow('aff_1', '2025-11-03', { wins: '100' }), dayRow('aff_1', '2025-12-03', { bets: '400' })])).toBe('0.00');
    expect(carriedInto(revshare(false), [dayRow('aff_1', '2025-11-03', { wins: '100' })])).toBe('0.00');
  });
});

describe('hybrid plans and the report', () => {
  test('commission is the CPA plus the settled RevShare; day rows add up to the totals', () => {
    const result = report({
      from: '2026-03-01',
      to: '2026-03-03',
      plan: hybrid,
      days: [
        dayRow('aff_1', '2026-03-01', { clicks: 4, registrations: 1, ftds: 1, deposit_count: 1, deposits: '25.00', bets: '40', wins: '12.50' }),
        dayRow('aff_1', '2026-03-03', { wins: '100', withdrawals: '7.5' }),
      ],
      ftds: [ftdRow('aff_1', '2026-03-01', '25.00')],
      carriedIn: '0.00',
    });

    expect(result.days.map((d) => [d.date, d.cpa, d.revshare, d.commission])).toEqual([
      ['2026-03-01', '50.00', '6.88', '56.88'],
      ['2026-03-02', '0.00', '0.00', '0.00'],
      ['2026-03-03', '0.00', '-25.00', '-25.00'],
    ]);
    expect(result.totals).toEqual({
      clicks: 4,
      registrations: 1,
      ftds: 1,
      qualified_ftds: 1,
      deposits: '25.00',
      withdrawals: '7.50',
      ngr: '-72.50',
      cpa: '50.00',
      revshare: '-18.12',
      commission: '50.00',
      registration_rate: '0.2500',
      ftd_rate: '1.0000',
    });
    expect(result.months![0]).toMatchObject({ payable: '0.00', carried_out: '-18.12' });
  });

  test('rows by link carry the link names known, and the link id alone otherwise', () => {
    const result = report({
      from: '2026-03-01',
      to: '2026-03-02',
      plan: hybrid,
      days: [
        dayRow('aff_1', '2026-03-01', { link_id: 'lnk_b', clicks: 2, bets: '10' }),
        dayRow('aff_1', '2026-03-02', { link_id: 'lnk_a', clicks: 1 }),
        dayRow('aff_1', '2026-03-02', { link_id: 'lnk_b', clicks: 3 }),
      ],
      ftds: [ftdRow('aff_1', '2026-03-02', '30', 'p1', 'app_1', 'lnk_b')],
      linkNames: new Map([['lnk_b', 'Summer banner']]),
    });

    expect(result.links.map((l) => [l.link_id, l.name, l.clicks, l.qualified_ftds, l.commission])).toEqual([
      ['lnk_a', undefined, 1, 0, '0.00'],
      ['lnk_b', 'Summer banner', 5, 1, '52.50'],
    ]);
  });

  test('without a plan there is no commission, and the figures are still reported', () => {
    const result = report({
      from: '2026-03-01',
      to: '2026-03-01',
      days: [dayRow('aff_1', '2026-03-01', { ftds: 1, deposits: '99.999' })],
      ftds: [ftdRow('aff_1', '2026-03-01', '99.999')],
    });

    expect([result.totals.deposits, result.totals.commission, result.months, result.plan_id]).toEqual(['100.00', '0.00', [], undefined]);
  });
});
