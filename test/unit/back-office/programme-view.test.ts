import { describe, expect, test } from '@jest/globals';
import { programme } from '../../../functions/back-office/programme';
import { programmeCsv } from '../../../functions/back-office/programme-csv';
import type { Plan } from '../../../functions/domain/affiliate-program';
import type { App } from '../../../functions/domain/apps';
import { ValidationError } from '../../../functions/domain/errors';
import { monthDays, programmeLimits, subIdMonths, topSubIds } from '../../../functions/domain/programme';
import { dayRow, ftdRow, MemoryAffiliateStore, MemoryAppStore, MemoryFunnel, MemoryLinkStore, MemoryPlanStore } from '../../support/affiliates';
import { MemorySubIds, subIdRow } from '../../support/programme';

const cpa: Plan = { app_id: 'app_1', plan_id: 'plan_cpa', name: 'CPA 50', cpa: { amount: '50.00', min_deposit: '20.00' }, created_at: '2026-01-01T00:00:00Z' };
const revshare: Plan = {
  app_id: 'app_1',
  plan_id: 'plan_rs',
  name: 'RevShare 25',
  revshare: { percent: '25', carry_over: true },
  created_at: '2026-01-01T00:00:00Z',
};
const apps: App[] = [{ app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z', currency: 'GBP' }];

/** Every call to a fake's methods, by `name.method`: what the view costs in store reads. */
function counted<T extends object>(target: T, name: string, calls: string[]): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      return typeof value === 'function'
        ? (...args: unknown[]) => {
            calls.push(`${name}.${String(property)}`);
            return value.apply(object, args);
          }
        : value;
    },
  });
}

async function setUp(count = 3, now = new Date('2026-03-20T10:00:00Z')) {
  const affiliates = new MemoryAffiliateStore();
  const base = { app_id: 'app_1', email: 'a@example.com', first_name: 'A', last_name: 'L', password_hash: 'x', created_at: '2026-01-01T00:00:00Z' };
  for (let i = 1; i <= count; i++) {
    const id = `aff_${String(i).padStart(4, '0')}`;
    await affiliates.register({
      ...base,
      affiliate_id: id,
      username: `user${i}`,
      email: `a${i}@example.com`,
      status: 'approved',
      plan_id: i === 2 ? 'plan_rs' : 'plan_cpa',
    });
  }
  const plans = new MemoryPlanStore();
  await plans.create(cpa);
  await plans.create(revshare);
  const funnel = new MemoryFunnel();
  const subIds = new MemorySubIds();
  const calls: string[] = [];
  const office = {
    apps: counted(new MemoryAppStore(apps), 'apps', calls),
    affiliates: counted(affiliates, 'affiliates', calls),
    plans: counted(plans, 'plans', calls),
    funnel: counted(funnel, 'funnel', calls),
    links: counted(new MemoryLinkStore(), 'links', calls),
    subIds: counted(subIds, 'subIds', calls),
    now: () => now,
  };
  return { funnel, subIds, calls, view: programme(office) };
}

describe('the programme view', () => {
  test("shows each affiliate's month as its own report computes it, and the totals exact to the cent", async () => {
    const { funnel, view } = await setUp();
    funnel.dayRows.push(
      dayRow('aff_0001', '2026-03-02', { clicks: 10, registrations: 2, ftds: 2, deposits: '45.10' }),
      dayRow('aff_0001', '2026-02-28', { clicks: 99, ftds: 1, deposits: '500' }),
      dayRow('aff_0002', '2026-03-31', { clicks: 4, registrations: 1, ftds: 1, deposits: '100.00', bets: '200.10', wins: '100' }),
    );
    funnel.ftdRows.push(ftdRow('aff_0001', '2026-03-02', '25.10'), ftdRow('aff_0001', '2026-03-02', '20'), ftdRow('aff_0002', '2026-03-31', '100'));

    const march = await view('app_1', '2026-03');

    expect([march.month, march.from, march.to, march.currency]).toEqual(['2026-03', '2026-03-01', '2026-03-31', 'GBP']);
    expect(march.affiliates.map((row) => [row.username, row.plan?.name, row.clicks, row.ftds, row.deposits, row.ngr, row.commission])).toEqual([
      ['user1', 'CPA 50', 10, 2, '45.10', '0.00', '100.00'],
      ['user2', 'RevShare 25', 4, 1, '100.00', '100.10', '25.03'],
      ['user3', 'CPA 50', 0, 0, '0.00', '0.00', '0.00'],
    ]);
    expect(march.totals).toEqual({
      clicks: 14,
      registrations: 3,
      ftds: 3,
      qualified_ftds: 3,
      deposits: '145.10',
      ngr: '100.10',
      cpa: '100.00',
      revshare: '25.03',
      commission: '125.03',
    });
    expect(march.truncated).toBe(false);
  });

  test('is the current UTC month without one, and refuses a month that is not YYYY-MM', async () => {
    const { view } = await setUp(1, new Date('2026-12-31T23:59:59Z'));

    await expect(view('app_1', undefined)).resolves.toMatchObject({ month: '2026-12', from: '2026-12-01', to: '2026-12-31' });
    await expect(view('app_1', '2026-13')).rejects.toThrow(ValidationError);
  });

  test('ranks the top affiliates by commission and by FTDs, leaving out those with none', async () => {
    const { funnel, view } = await setUp();
    funnel.dayRows.push(dayRow('aff_0001', '2026-03-02', { ftds: 1 }), dayRow('aff_0003', '2026-03-03', { ftds: 3 }));
    funnel.ftdRows.push(
      ftdRow('aff_0001', '2026-03-02', '30'),
      ftdRow('aff_0003', '2026-03-03', '5'),
      ftdRow('aff_0003', '2026-03-03', '5'),
      ftdRow('aff_0003', '2026-03-03', '5'),
    );

    const { top } = await view('app_1', '2026-03');

    expect(top.by_commission.map((row) => [row.username, row.commission])).toEqual([['user1', '50.00']]);
    expect(top.by_ftds.map((row) => [row.username, row.ftds])).toEqual([
      ['user3', 3],
      ['user1', 1],
    ]);
  });

  test("ranks the month's sub-ids by FTDs across days, reading sub-id rows only of affiliates with activity", async () => {
    const { funnel, subIds, calls, view } = await setUp();
    funnel.dayRows.push(dayRow('aff_0001', '2026-03-02', { clicks: 30, registrations: 2, ftds: 2 }));
    subIds.rows.push(
      subIdRow('aff_0001', '2026-03-02', 'facebook', { clicks: 10, registrations: 1, ftds: 1, deposits: '20.05' }),
      subIdRow('aff_0001', '2026-03-03', 'facebook', { clicks: 5, ftds: 1, deposits: '30' }),
      subIdRow('aff_0001', '2026-03-02', 'tiktok', { clicks: 14, registrations: 1 }),
      subIdRow('aff_0001', '2026-03-02', '(other)', { clicks: 100, ftds: 9 }),
      subIdRow('aff_0001', '2026-04-01', 'april', { ftds: 9 }),
    );

    const { top } = await view('app_1', '2026-03');

    expect(top.sub_ids).toEqual([
      { affiliate_id: 'aff_0001', username: 'user1', link_id: 'lnk_1', sub_id: 'facebook', clicks: 15, registrations: 1, ftds: 2, deposits: '50.05' },
      { affiliate_id: 'aff_0001', username: 'user1', link_id: 'lnk_1', sub_id: 'tiktok', clicks: 14, registrations: 1, ftds: 0, deposits: '0.00' },
    ]);
    expect(calls.filter((call) => call === 'subIds.subIdDays')).toHaveLength(1);
  });

  test('reads the application, its plans and each affiliate once, not once per report: two funnel queries an idle affiliate', async () => {
    const { calls, view } = await setUp(3);

    await view('app_1', '2026-03');

    const tally = Object.fromEntries([...new Set(calls)].map((call) => [call, calls.filter((c) => c === call).length]));
    // The RevShare affiliate (carry-over) also reads its earlier days: 3 × (days, ftds) + 1.
    expect(tally).toEqual({ 'affiliates.page': 1, 'plans.list': 1, 'apps.get': 1, 'funnel.days': 4, 'funnel.ftds': 3 });
  });

  test(`stops at ${programmeLimits.maxAffiliates} affiliates and says so`, async () => {
    const { calls, view } = await setUp(programmeLimits.maxAffiliates + 1);

    const march = await view('app_1', '2026-03');

    expect([march.affiliates.length, march.truncated, march.affiliates.at(-1)?.affiliate_id]).toEqual([programmeLimits.maxAffiliates, true, 'aff_1000']);
    expect(calls.filter((call) => call === 'affiliates.page')).toHaveLength(programmeLimits.maxAffiliates / 100);
  }, 30_000);
});

describe('the programme CSV', () => {
  test('has a row per affiliate and the totals, exact decimals, a formula-like username neutralised', async () => {
    const { funnel, view } = await setUp(1);
    funnel.dayRows.push(dayRow('aff_0001', '2026-03-02', { ftds: 1, deposits: '20.10' }));
    funnel.ftdRows.push(ftdRow('aff_0001', '2026-03-02', '20.10'));
    const march = await view('app_1', '2026-03');

    const csv = programmeCsv({ ...march, affiliates: march.affiliates.map((row) => ({ ...row, username: '=HYPERLINK("x")' })) });

    expect(csv.split('\r\n')).toEqual([
      'row,month,affiliate_id,username,status,plan,clicks,registrations,ftds,qualified_ftds,deposits,ngr,cpa,revshare,commission,currency',
      `affiliate,2026-03,aff_0001,"'=HYPERLINK(""x"")",approved,CPA 50,0,0,1,1,20.10,0.00,50.00,0.00,50.00,GBP`,
      'total,2026-03,,,,,0,0,1,1,20.10,0.00,50.00,0.00,50.00,GBP',
      '',
    ]);
  });
});

describe('months and sub-ids', () => {
  test.each([
    ['2026-02', '2026-02-28'],
    ['2028-02', '2028-02-29'],
    ['2026-12', '2026-12-31'],
  ])('%s ends on %s', (month, last) => {
    expect(monthDays(month)).toEqual({ from: `${month}-01`, to: last });
  });

  test('keeps one sub-id apart under two links and two affiliates, and (other) out of the ranking', () => {
    const months = subIdMonths(
      [
        subIdRow('aff_1', '2026-03-01', 'x', { clicks: 1 }),
        subIdRow('aff_1', '2026-03-01', 'x', { clicks: 2, link_id: 'lnk_2' }),
        subIdRow('aff_2', '2026-03-01', 'x', { clicks: 3 }),
        subIdRow('aff_2', '2026-03-01', '(other)', { clicks: 50 }),
      ],
      new Map([['aff_1', 'one']]),
    );

    expect(topSubIds(months).map((row) => [row.username, row.link_id, row.sub_id, row.clicks])).toEqual([
      ['aff_2', 'lnk_1', 'x', 3],
      ['one', 'lnk_2', 'x', 2],
      ['one', 'lnk_1', 'x', 1],
    ]);
  });
});
