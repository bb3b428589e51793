import { describe, expect, test } from '@jest/globals';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { makeGetAffiliateReportHandler } from '../../../functions/api/get-affiliate-report/make-handler';
import { affiliateReport } from '../../../functions/back-office/affiliate-report';
import type { FunnelFigures, Plan, SubIdDayRow } from '../../../functions/domain/affiliate-program';
import { conversionRates } from '../../../functions/domain/commission';
import { dayRow, ftdRow, MemoryAffiliateStore, MemoryAppStore, MemoryFunnel, MemoryLinkStore, MemoryPlanStore } from '../../support/affiliates';
import { apiEvent, asProxyHandler, context } from '../../support/lambda';
import { keyResolverOf } from '../../support/settings';

const cpa: Plan = { app_id: 'app_1', plan_id: 'plan_c', name: 'CPA', cpa: { amount: '50.00', min_deposit: '20.00' }, created_at: '2026-01-01T00:00:00Z' };
const DAY = '2026-03-02';

const subIdRow = (linkId: string, subId: string, figures: Partial<SubIdDayRow> = {}): SubIdDayRow => {
  const { sub_ids: _none, ...row } = dayRow('aff_1', DAY, { link_id: linkId });
  return { ...row, sub_id: subId, ...figures };
};
const ftd = (linkId: string, amount: string, subId?: string, profileId = `p-${amount}-${subId}`) => ({
  ...ftdRow('aff_1', DAY, amount, profileId, 'app_1', linkId),
  ...(subId === undefined ? {} : { sub_id: subId }),
});

async function setUp() {
  const affiliates = new MemoryAffiliateStore();
  const base = { email: 'a@example.com', username: 'ada', first_name: 'Ada', last_name: 'L', password_hash: 'x', created_at: '2026-01-01T00:00:00Z' };
  await affiliates.register({ ...base, app_id: 'app_1', affiliate_id: 'aff_1', status: 'approved', plan_id: 'plan_c' });
  const plans = new MemoryPlanStore();
  await plans.create(cpa);
  const funnel = new MemoryFunnel();
  const links = new MemoryLinkStore();
  await links.create({
    app_id: 'app_1',
    affiliate_id: 'aff_1',
    link_id: 'link_a',
    name: 'Spring banner',
    landing_url: 'https://casino.example/',
    created_at: '2026-01-01T00:00:00Z',
  });
  const office = { apps: new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z' }]), affiliates, plans, funnel, links };
  // One link's day: 10 clicks, 4 registrations, 3 FTDs; sub-ids "spring" and "autumn" have rows, one past the bound went to (other).
  funnel.dayRows.push(
    dayRow('aff_1', DAY, {
      link_id: 'link_a',
      clicks: 10,
      registrations: 4,
      ftds: 3,
      deposit_count: 3,
      deposits: '95.5',
      bets: '40',
      wins: '10',
      sub_ids: ['spring', 'autumn'],
    }),
  );
  funnel.subIdRows.push(
    subIdRow('link_a', 'spring', { clicks: 5, registrations: 2, ftds: 1, deposit_count: 1, deposits: '50.5', bets: '30' }),
    subIdRow('link_a', 'autumn', { clicks: 2, registrations: 1, ftds: 1, deposit_count: 1, deposits: '10' }),
    subIdRow('link_a', '(other)', { clicks: 1 }),
  );
  funnel.ftdRows.push(ftd('link_a', '50.5', 'spring'), ftd('link_a', '10', 'autumn'), ftd('link_a', '35', undefined));
  return { office, funnel, report: affiliateReport(office) };
}

const figuresOf = (row: FunnelFigures) => ({
  clicks: row.clicks,
  registrations: row.registrations,
  ftds: row.ftds,
  qualified_ftds: row.qualified_ftds,
  deposits: row.deposits,
  ngr: row.ngr,
  cpa: row.cpa,
  registration_rate: row.registration_rate,
  ftd_rate: row.ftd_rate,
});

describe('affiliate report by sub-id', () => {
  test('has a row per link and sub-id, with the link name, (other), and (none) for what the link counted without a sub-id', async () => {
    const { report } = await setUp();

    const answer = await report('app_1', 'aff_1', '2026-03-01', '2026-03-31', { subIds: true });

    expect(answer.sub_ids!.map((row) => [row.link_id, row.name, row.sub_id])).toEqual([
      ['link_a', 'Spring banner', 'autumn'],
      ['link_a', 'Spring banner', 'spring'],
      ['link_a', 'Spring banner', '(other)'],
      ['link_a', 'Spring banner', '(none)'],
    ]);
    expect(figuresOf(answer.sub_ids![1])).toEqual({
      clicks: 5,
      registrations: 2,
      ftds: 1,
      qualified_ftds: 1,
      deposits: '50.50',
      ngr: '30.00',
      cpa: '50.00',
      registration_rate: '0.4000',
      ftd_rate: '0.5000',
    });
    expect(figuresOf(answer.sub_ids![0])).toMatchObject({ qualified_ftds: 0, cpa: '0.00', ftd_rate: '1.0000' });
    expect(figuresOf(answer.sub_ids![3])).toEqual({
      clicks: 2,
      registrations: 1,
      ftds: 1,
      qualified_ftds: 1,
      deposits: '35.00',
      ngr: '0.00',
      cpa: '50.00',
      registration_rate: '0.5000',
      ftd_rate: '1.0000',
    });
  });

  test('the sub-id rows add up to their link row', async () => {
    const { report } = await setUp();

    const answer = await report('app_1', 'aff_1', '2026-03-01', '2026-03-31', { subIds: true });

    const sum = (field: 'clicks' | 'registrations' | 'ftds' | 'qualified_ftds') => answer.sub_ids!.reduce((n, row) => n + row[field], 0);
    const deposits = answer.sub_ids!.reduce((n, row) => n + Number(row.deposits), 0);
    const link = answer.links[0];
    expect([sum('clicks'), sum('registrations'), sum('ftds'), sum('qualified_ftds'), deposits.toFixed(2)]).toEqual([
      link.clicks,
      link.registrations,
      link.ftds,
      link.qualified_ftds,
      link.deposits,
    ]);
  });

  test('a first deposit whose sub-id had no row that day counts under (other)', async () => {
    const { funnel, report } = await setUp();
    funnel.ftdRows.push(ftd('link_a', '99', 'past-bound'));

    const answer = await report('app_1', 'aff_1', '2026-03-01', '2026-03-31', { subIds: true });

    expect(answer.sub_ids!.find((row) => row.sub_id === '(other)')).toMatchObject({ qualified_ftds: 1, cpa: '50.00' });
  });

  test('is read only when asked for: the sub-id rows cost a query of their own', async () => {
    const { funnel, report } = await setUp();

    const answer = await report('app_1', 'aff_1', '2026-03-01', '2026-03-31');

    expect(answer.sub_ids).toBeUndefined();
    expect(funnel.reads.map((read) => read.rows)).not.toContain('sub_ids');
  });

  test('a link with no sub-id rows has only its (none) row; a day with nothing at all has none', async () => {
    const { funnel, report } = await setUp();
    funnel.dayRows.push(dayRow('aff_1', DAY, { link_id: 'link_b', clicks: 3 }), dayRow('aff_1', '2026-03-03', { link_id: 'link_c' }));

    const answer = await report('app_1', 'aff_1', '2026-03-01', '2026-03-31', { subIds: true });

    expect(answer.sub_ids!.filter((row) => row.link_id !== 'link_a').map((row) => [row.link_id, row.sub_id, row.clicks])).toEqual([['link_b', '(none)', 3]]);
  });
});

describe('conversion rates', () => {
  test.each([
    [
      { clicks: 3, registrations: 1, ftds: 1 },
      { registration_rate: '0.3333', ftd_rate: '1.0000' },
    ],
    [
      { clicks: 3, registrations: 2, ftds: 1 },
      { registration_rate: '0.6667', ftd_rate: '0.5000' },
    ],
    [
      { clicks: 20000, registrations: 1, ftds: 0 },
      { registration_rate: '0.0001', ftd_rate: '0.0000' },
    ],
    [
      { clicks: 40000, registrations: 1, ftds: 0 },
      { registration_rate: '0.0000', ftd_rate: '0.0000' },
    ],
    [
      { clicks: 0, registrations: 2, ftds: 1 },
      { registration_rate: null, ftd_rate: '0.5000' },
    ],
    [
      { clicks: 0, registrations: 0, ftds: 0 },
      { registration_rate: null, ftd_rate: null },
    ],
    [
      { clicks: 1, registrations: 3, ftds: 0 },
      { registration_rate: '3.0000', ftd_rate: '0.0000' },
    ],
  ])('%j give %j (exact, 4 places half up, null without a denominator)', (counts, rates) => {
    expect(conversionRates(counts)).toEqual(rates);
  });

  test('every day, link and total row of a report carries them', async () => {
    const { report } = await setUp();

    const answer = await report('app_1', 'aff_1', '2026-03-01', '2026-03-03');

    expect(answer.totals).toMatchObject({ registration_rate: '0.4000', ftd_rate: '0.7500' });
    expect(answer.links[0]).toMatchObject({ registration_rate: '0.4000', ftd_rate: '0.7500' });
    expect(answer.days.map((day) => [day.date, day.registration_rate, day.ftd_rate])).toEqual([
      ['2026-03-01', null, null],
      ['2026-03-02', '0.4000', '0.7500'],
      ['2026-03-03', null, null],
    ]);
  });
});

describe('GET /api/affiliates/{affiliate_id}/report?group_by', () => {
  async function get(query: string) {
    const { office } = await setUp();
    const handler = asProxyHandler(
      makeGetAffiliateReportHandler({ keys: keyResolverOf({ 'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k1' } }), ...office }),
    );
    const event = apiEvent({ method: 'GET', path: `/api/affiliates/aff_1/report${query}`, headers: { Accept: 'application/json', 'X-Api-Key': 'server-key' } });
    event.pathParameters = { affiliate_id: 'aff_1' };
    const response: APIGatewayProxyResult = await handler(event, context());
    return { status: response.statusCode, body: JSON.parse(response.body) };
  }

  test.each([
    ['', ['days', 'links']],
    ['&group_by=day', ['days', 'links']],
    ['&group_by=link', ['links']],
    ['&group_by=sub_id', ['sub_ids']],
  ])('%s answers the totals, the months and the rows %j', async (query, rows) => {
    const { status, body } = await get(`?from=2026-03-01&to=2026-03-31${query}`);

    expect(status).toBe(200);
    expect(Object.keys(body).filter((key) => ['days', 'links', 'sub_ids'].includes(key))).toEqual(rows);
    expect(body.totals).toMatchObject({ clicks: 10, registration_rate: '0.4000', ftd_rate: '0.7500' });
    expect(body.months).toEqual([]);
  });

  test('group_by=sub_id answers the named sub-ids of each link first, then (other), then (none)', async () => {
    const { body } = await get('?from=2026-03-01&to=2026-03-31&group_by=sub_id');

    expect(body.sub_ids.map((row: { sub_id: string }) => row.sub_id)).toEqual(['autumn', 'spring', '(other)', '(none)']);
  });

  test.each([['group_by=week'], ['group_by=']])('answers 400 naming group_by for %s', async (query) => {
    const { status, body } = await get(`?from=2026-03-01&to=2026-03-31&${query}`);

    expect(status).toBe(400);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatch(/^group_by /);
  });
});
