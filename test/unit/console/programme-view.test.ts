/** The programme view's routes (functions/console/programme/): as the console's page calls them. */
import { describe, expect, test } from '@jest/globals';
import { consoleRouter } from '../../support/console-router';
import { dayRow, ftdRow } from '../../support/affiliates';
import { subIdRow } from '../../support/programme';

async function withProgramme() {
  const api = consoleRouter();
  await api.plans.create({
    app_id: 'app_1',
    plan_id: 'plan_cpa',
    name: 'CPA 30',
    cpa: { amount: '30.50', min_deposit: '10' },
    created_at: '2026-01-01T00:00:00Z',
  });
  await api.addAffiliate({ affiliate_id: 'aff_1', username: 'bo', status: 'approved', plan_id: 'plan_cpa' });
  await api.addAffiliate({ affiliate_id: 'aff_2', username: 'cy' });
  api.funnel.dayRows.push(dayRow('aff_1', '2026-11-03', { clicks: 7, registrations: 2, ftds: 2, deposits: '30.01' }));
  api.funnel.ftdRows.push(ftdRow('aff_1', '2026-11-03', '20.01'), ftdRow('aff_1', '2026-11-03', '10'));
  api.subIds.rows.push(subIdRow('aff_1', '2026-11-03', 'spring', { clicks: 7, ftds: 2 }));
  return api;
}

describe('GET /console/api/programme', () => {
  test("answers a viewer the current month's affiliates, totals and tops", async () => {
    const api = await withProgramme();
    const viewer = await api.signIn('viewer');

    const response = await api.call('GET', '/console/api/programme', { as: viewer });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      month: '2026-11',
      currency: 'EUR',
      totals: { clicks: 7, ftds: 2, deposits: '30.01', commission: '61.00' },
      top: { by_commission: [{ affiliate_id: 'aff_1', commission: '61.00' }], sub_ids: [{ sub_id: 'spring', ftds: 2 }] },
      truncated: false,
    });
    expect(response.body.affiliates.map((row: { username: string; status: string }) => [row.username, row.status])).toEqual([
      ['bo', 'approved'],
      ['cy', 'pending'],
    ]);
  });

  test('answers an earlier month asked for, and 400 naming the month for one that is not YYYY-MM', async () => {
    const api = await withProgramme();

    const october = await api.call('GET', '/console/api/programme?month=2026-10');
    const bad = await api.call('GET', '/console/api/programme?month=2026-1');
    const unknown = await api.call('GET', '/console/api/programme?month=2026-10&affiliate=aff_1');

    expect([october.status, october.body.totals.clicks, october.body.to]).toEqual([200, 0, '2026-10-31']);
    expect([bad.status, JSON.stringify(bad.body)]).toEqual([400, expect.stringContaining('month')]);
    expect(unknown.status).toBe(400);
  });

  test('is for signed-in users only', async () => {
    const api = await withProgramme();

    await expect(api.call('GET', '/console/api/programme', { as: null })).resolves.toMatchObject({ status: 401 });
  });
});

describe('GET /console/api/programme.csv', () => {
  test('downloads the same month as CSV, named after it', async () => {
    const api = await withProgramme();

    const response = await api.call('GET', '/console/api/programme.csv?month=2026-11');

    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="affiliate-programme-2026-11.csv"',
    });
    expect(response.text.split('\r\n').slice(1)).toEqual([
      'affiliate,2026-11,aff_1,bo,approved,CPA 30,7,2,2,2,30.01,0.00,61.00,0.00,61.00,EUR',
      'affiliate,2026-11,aff_2,cy,pending,,0,0,0,0,0.00,0.00,0.00,0.00,0.00,EUR',
      'total,2026-11,,,,,7,2,2,2,30.01,0.00,61.00,0.00,61.00,EUR',
      '',
    ]);
  });
});
