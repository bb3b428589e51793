import { describe, expect, test } from '@jest/globals';
import { affiliateReport, affiliateTrace, checkReportRange } from '../../../functions/back-office/affiliate-report';
import type { Plan } from '../../../functions/domain/affiliate-program';
import type { App } from '../../../functions/domain/apps';
import { NotFound, ValidationError } from '../../../functions/domain/errors';
import { dayRow, ftdRow, MemoryAffiliateStore, MemoryAppStore, MemoryFunnel, MemoryLinkStore, MemoryPlanStore } from '../../support/affiliates';
import { MemoryTimeline } from '../../support/players';

const hybrid: Plan = {
  app_id: 'app_1',
  plan_id: 'plan_h',
  name: 'Hybrid',
  cpa: { amount: '50.00', min_deposit: '20.00' },
  revshare: { percent: '25', carry_over: true },
  created_at: '2026-01-01T00:00:00Z',
};
const apps: App[] = [
  { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z', currency: 'GBP', money_events: { Deposit: 'deposit', Bet: 'bet', Win: 'win' } },
  { app_id: 'app_2', name: 'Other', created_at: '2026-01-01T00:00:00Z' },
];

async function setUp(planId: string | null = 'plan_h') {
  const affiliates = new MemoryAffiliateStore();
  const base = { email: 'a@example.com', username: 'ada', first_name: 'Ada', last_name: 'L', password_hash: 'x', created_at: '2026-01-01T00:00:00Z' };
  await affiliates.register({ ...base, app_id: 'app_1', affiliate_id: 'aff_1', status: 'approved', ...(planId ? { plan_id: planId } : {}) });
  await affiliates.register({ ...base, app_id: 'app_2', affiliate_id: 'aff_2' });
  const plans = new MemoryPlanStore();
  await plans.create(hybrid);
  const funnel = new MemoryFunnel();
  const timeline = new MemoryTimeline();
  const links = new MemoryLinkStore();
  const office = { apps: new MemoryAppStore(apps), affiliates, plans, funnel, timeline, links };
  return { office, funnel, timeline, links, report: affiliateReport(office), trace: affiliateTrace(office) };
}

describe('affiliate report', () => {
  test("is computed with the affiliate's plan in the application's currency", async () => {
    const { funnel, report } = await setUp();
    funnel.dayRows.push(dayRow('aff_1', '2026-03-01', { ftds: 1, deposits: '25', bets: '40', wins: '12.50' }));
    funnel.ftdRows.push(ftdRow('aff_1', '2026-03-01', '25'));

    const result = await report('app_1', 'aff_1', '2026-03-01', '2026-03-01');

    expect([result.currency, result.plan_id, result.totals.cpa, result.totals.revshare, result.totals.commission]).toEqual([
      'GBP',
      'plan_h',
      '50.00',
      '6.88',
      '56.88',
    ]);
  });

  test("names each link row after the affiliate's own link, and leaves unnamed a link id that is not the affiliate's", async () => {
    const { funnel, links, report } = await setUp();
    const link = { app_id: 'app_1', affiliate_id: 'aff_1', landing_url: 'https://casino.example/', created_at: '2026-01-02T00:00:00Z' };
    await links.create({ ...link, link_id: 'lnk_own', name: 'Spring banner' });
    await links.create({ ...link, link_id: 'lnk_other', affiliate_id: 'aff_9', name: 'Not yours' });
    funnel.dayRows.push(dayRow('aff_1', '2026-03-01', { link_id: 'lnk_own', clicks: 3 }), dayRow('aff_1', '2026-03-01', { link_id: 'lnk_other', clicks: 1 }));

    const result = await report('app_1', 'aff_1', '2026-03-01', '2026-03-01');

    expect(result.links.map((row) => [row.link_id, row.name, row.clicks])).toEqual([
      ['lnk_other', undefined, 1],
      ['lnk_own', 'Spring banner', 3],
    ]);
  });

  test("carries in the negative balance of the affiliate's months before the range's first month, not of its days before `from` in that month", async () => {
    const { funnel, report } = await setUp();
    funnel.dayRows.push(
      dayRow('aff_1', '2026-01-20', { wins: '100' }), // January: −25.00, carried out
      dayRow('aff_1', '2026-02-03', { bets: '1000' }), // February, before `from`: outside the range
      dayRow('aff_1', '2026-02-15', { bets: '200' }), // +50.00
    );

    const result = await report('app_1', 'aff_1', '2026-02-10', '2026-02-28');

    expect(result.months).toEqual([
      { month: '2026-02', from: '2026-02-10', to: '2026-02-28', revshare: '50.00', carried_in: '-25.00', payable: '25.00', carried_out: '0.00' },
    ]);
    expect(result.totals.commission).toBe('25.00');
    expect(funnel.reads).toContainEqual({ rows: 'days', from: '1970-01-01', to: '2026-01-31' });
  });

  test('an affiliate without a plan earns nothing; its figures are reported', async () => {
    const { funnel, report } = await setUp(null);
    funnel.dayRows.push(dayRow('aff_1', '2026-03-01', { clicks: 7 }));

    const result = await report('app_1', 'aff_1', '2026-03-01', '2026-03-01');

    expect([result.totals.clicks, result.totals.commission, result.plan_id]).toEqual([7, '0.00', undefined]);
  });

  test("another application's affiliate and an unknown one are both Not Found", async () => {
    const { report } = await setUp();

    await expect(report('app_1', 'aff_2', '2026-03-01', '2026-03-01')).rejects.toThrow(new NotFound('Not Found'));
    await expect(report('app_1', 'aff_none', '2026-03-01', '2026-03-01')).rejects.toThrow(NotFound);
  });
});

describe('report range', () => {
  test.each([
    ['2026-02-30', '2026-03-01', 'from must be a date YYYY-MM-DD'],
    ['2026-03-01', '2026-3-2', 'to must be a date YYYY-MM-DD'],
    ['2026-03-02', '2026-03-01', 'to must not be before from'],
    ['2024-01-01', '2025-01-01', 'to must be at most 366 days from from (both included)'],
  ])('from %s to %s is refused: "%s"', (from, to, message) => {
    expect(() => checkReportRange(from, to)).toThrow(ValidationError);
    expect(() => checkReportRange(from, to)).toThrow(expect.objectContaining({ errors: [message] }));
  });

  test('a leap year is one range: 366 days, both ends included', () => {
    expect(checkReportRange('2024-01-01', '2024-12-31')).toEqual({ from: '2024-01-01', to: '2024-12-31' });
  });
});

describe('affiliate trace', () => {
  test('lists the registrations and first deposits of the range, and the money events of each attributed player in it', async () => {
    const { funnel, timeline, trace } = await setUp();
    const registration = (profileId: string, day: string) => ({
      app_id: 'app_1',
      affiliate_id: 'aff_1',
      profile_id: profileId,
      link_id: 'lnk_1',
      sub_id: 'spring',
      day,
      urm_date_time: `${day}T08:00:00Z`,
    });
    funnel.registrationRows.push(registration('p-old', '2026-02-20'), registration('p-new', '2026-03-02'));
    funnel.ftdRows.push(ftdRow('aff_1', '2026-03-02', '15', 'p-new'), ftdRow('aff_1', '2026-03-03', '30', 'p-old'));
    timeline.add('p-old', 'Bet', '2026-02-28T10:00:00Z', { amount: 5, currency: 'GBP' }); // before the range
    timeline.add('p-old', 'Deposit', '2026-03-03T10:00:00Z', { amount: 30, currency: 'GBP' });
    timeline.add('p-old', 'page_view', '2026-03-03T11:00:00Z', { path: '/' }); // not money
    for (let i = 0; i < 120; i += 1)
      timeline.add('p-old', 'Bet', `2026-03-04T10:${String(i % 60).padStart(2, '0')}:${String(Math.floor(i / 60)).padStart(2, '0')}Z`, {
        amount: 1,
        currency: 'GBP',
      });
    timeline.add('p-new', 'Win', '2026-03-05T10:00:00Z', { amount: 2.5, currency: 'GBP' });
    timeline.add('p-new', 'Win', '2026-04-01T10:00:00Z', { amount: 9, currency: 'GBP' }); // after the range

    const result = await trace('app_1', 'aff_1', '2026-03-01', '2026-03-31');

    expect(result.registrations.map((r) => r.profile_id)).toEqual(['p-new']);
    expect(result.ftds.map((f) => [f.profile_id, f.amount, f.insert_id, f.qualified])).toEqual([
      ['p-new', '15', 'deposit-p-new', false],
      ['p-old', '30', 'deposit-p-old', true],
    ]);
    const old = result.players.find((p) => p.profile_id === 'p-old')!;
    expect(old.events.length).toBe(121);
    expect(old.events[0]).toEqual({
      event: 'Deposit',
      kind: 'deposit',
      urm_date_time: '2026-03-03T10:00:00Z',
      urm_insert_id: 'Deposit-1',
      amount: 30,
      currency: 'GBP',
    });
    expect(result.players.find((p) => p.profile_id === 'p-new')!.events.map((e) => [e.kind, e.amount])).toEqual([['win', 2.5]]);
  });

  test("another application's affiliate is Not Found", async () => {
    const { trace } = await setUp();

    await expect(trace('app_2', 'aff_1', '2026-03-01', '2026-03-31')).rejects.toThrow(NotFound);
  });
});

describe('affiliate trace, a page of players at a time', () => {
  const registration = (profileId: string, day: string) => ({
    app_id: 'app_1',
    affiliate_id: 'aff_1',
    profile_id: profileId,
    link_id: '-',
    day,
    urm_date_time: `${day}T08:00:00Z`,
  });

  test('pages the players by registration day and id behind a cursor, the last page without one; registrations and first deposits come whole', async () => {
    const { funnel, timeline, trace } = await setUp();
    funnel.registrationRows.push(registration('p-c', '2026-03-02'), registration('p-a', '2026-03-01'), registration('p-b', '2026-03-02'));
    funnel.ftdRows.push(ftdRow('aff_1', '2026-03-03', '30', 'p-c'));
    timeline.add('p-c', 'Deposit', '2026-03-03T10:00:00Z', { amount: 30, currency: 'GBP' });

    const first = await trace('app_1', 'aff_1', '2026-03-01', '2026-03-31', { limit: 2 });
    const second = await trace('app_1', 'aff_1', '2026-03-01', '2026-03-31', { limit: 2, cursor: first.next_cursor! });

    expect(first.players.map((p) => p.profile_id)).toEqual(['p-a', 'p-b']);
    expect(second.players.map((p) => [p.profile_id, p.events.length])).toEqual([['p-c', 1]]);
    expect(second.next_cursor).toBeNull();
    expect([first.registrations.length, second.registrations.length, second.ftds.length]).toEqual([3, 3, 1]);
  });

  test("a cursor of another affiliate's trace, or none this trace gave, is refused", async () => {
    const { trace } = await setUp();
    const foreign = Buffer.from(JSON.stringify(['app_1', 'aff_9', '2026-03-01#p-a'])).toString('base64url');

    await expect(trace('app_1', 'aff_1', '2026-03-01', '2026-03-31', { limit: 2, cursor: foreign })).rejects.toThrow(ValidationError);
    await expect(trace('app_1', 'aff_1', '2026-03-01', '2026-03-31', { limit: 2, cursor: 'nonsense' })).rejects.toThrow(ValidationError);
  });
});
