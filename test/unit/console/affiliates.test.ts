/** The console's affiliates routes (functions/console/affiliates): decisions, plans and reading affiliates. */
import { describe, expect, jest, test } from '@jest/globals';
import { consoleRouter } from '../../support/console-router';

const plan = { app_id: 'app_1', plan_id: 'plan_1', name: 'CPA 50', cpa: { amount: '50.00', min_deposit: '0.00' }, created_at: '2026-01-01T00:00:00.000Z' };

/** The console with the pending affiliate aff_1 (postbacks on) and the plan plan_1, called by a marketer. */
async function withAffiliate() {
  const api = consoleRouter();
  await api.addAffiliate({ affiliate_id: 'aff_1', email: 'ada@example.com', username: 'ada' }, 'https://tracker.example/pb?e={event}');
  await api.plans.create(plan);
  return { api, marketer: await api.signIn('marketer', 'mia@example.com') };
}

describe('approving and suspending from the console', () => {
  test("a marketer's approval updates the application's affiliate and writes affiliate.approved with who did it", async () => {
    const { api, marketer } = await withAffiliate();

    const response = await api.call('POST', '/console/api/affiliates/aff_1/status', { as: marketer, body: { status: 'approved' } });

    expect(response.status).toBe(200);
    expect(response.body.affiliate).toMatchObject({ affiliate_id: 'aff_1', status: 'approved' });
    expect((await api.affiliates.get('app_1', 'aff_1'))?.status).toBe('approved');
    expect(api.audit.entries).toEqual([
      expect.objectContaining({
        app_id: 'app_1',
        actor: { user_id: marketer.userId, email: 'mia@example.com' },
        action: 'affiliate.approved',
        target: 'affiliate:aff_1',
        details: { from: 'pending', to: 'approved' },
      }),
    ]);
    expect(response.text).not.toContain('secret-hash');
  });

  test('a viewer is refused with 403 and nothing is changed or audited', async () => {
    const { api } = await withAffiliate();

    const response = await api.call('POST', '/console/api/affiliates/aff_1/status', { as: await api.signIn('viewer'), body: { status: 'suspended' } });

    expect([response.status, response.body]).toEqual([403, { message: 'Forbidden' }]);
    expect((await api.affiliates.get('app_1', 'aff_1'))?.status).toBe('pending');
    expect(api.audit.entries).toEqual([]);
  });

  test('without the CSRF token the change is refused with 403', async () => {
    const { api, marketer } = await withAffiliate();

    const response = await api.call('POST', '/console/api/affiliates/aff_1/status', { as: marketer, body: { status: 'suspended' }, csrf: false });

    expect([response.status, response.body]).toEqual([403, { message: 'CSRF token missing or invalid' }]);
    expect((await api.affiliates.get('app_1', 'aff_1'))?.status).toBe('pending');
  });

  test('pending is not a decision: 400 naming the field', async () => {
    const { api, marketer } = await withAffiliate();

    const response = await api.call('POST', '/console/api/affiliates/aff_1/status', { as: marketer, body: { status: 'pending' } });

    expect(response.status).toBe(400);
    expect(response.body.errors.join()).toMatch(/status/);
    expect(api.audit.entries).toEqual([]);
  });
});

describe('assigning a plan from the console', () => {
  test('puts the affiliate on the plan and writes affiliate.plan_assigned', async () => {
    const { api, marketer } = await withAffiliate();

    const response = await api.call('POST', '/console/api/affiliates/aff_1/plan', { as: marketer, body: { plan_id: 'plan_1' } });

    expect([response.status, response.body.affiliate.plan_id]).toEqual([200, 'plan_1']);
    expect(api.audit.entries).toEqual([
      expect.objectContaining({
        action: 'affiliate.plan_assigned',
        target: 'affiliate:aff_1',
        details: { from: null, to: 'plan_1', version: 1, effective_from: '2026-11-21' },
      }),
    ]);
  });

  test('a plan not in the application is 404, and the affiliate is left as it was', async () => {
    const { api, marketer } = await withAffiliate();
    await api.plans.create({ ...plan, app_id: 'app_2', plan_id: 'plan_theirs' });

    const response = await api.call('POST', '/console/api/affiliates/aff_1/plan', { as: marketer, body: { plan_id: 'plan_theirs' } });

    expect(response.status).toBe(404);
    expect((await api.affiliates.get('app_1', 'aff_1'))?.plan_id).toBeUndefined();
    expect(api.audit.entries).toEqual([]);
  });
});

describe('reading affiliates from the console', () => {
  test("one affiliate comes with its links' click addresses on the portal origin and whether postbacks are on, never the URL or the hash", async () => {
    const { api } = await withAffiliate();
    await api.links.create({
      link_id: 'lnk_1',
      app_id: 'app_1',
      affiliate_id: 'aff_1',
      name: 'Spring',
      landing_url: 'https://casino.example/',
      created_at: '2026-11-02T00:00:00.000Z',
    });

    const response = await api.call('GET', '/console/api/affiliates/aff_1', { as: await api.signIn('viewer') });

    expect(response.status).toBe(200);
    expect(response.body.affiliate).toMatchObject({
      affiliate_id: 'aff_1',
      status: 'pending',
      plan: null,
      links: [{ link_id: 'lnk_1', name: 'Spring', click_url: 'https://portal.casino.example/t/lnk_1' }],
      postback_url_set: true,
    });
    expect(response.text).not.toMatch(/secret-hash|tracker\.example/);
  });

  test('an id no affiliate can have is 404 without reaching the store', async () => {
    const { api } = await withAffiliate();
    const read = jest.spyOn(api.affiliates, 'get');

    const response = await api.call('GET', `/console/api/affiliates/${'x'.repeat(129)}`);

    expect(response.status).toBe(404);
    expect(read).not.toHaveBeenCalled();
  });

  test("the listing by status holds the session's application's affiliates of that status only", async () => {
    const { api } = await withAffiliate();
    await api.addAffiliate({ affiliate_id: 'aff_2', status: 'suspended' });
    await api.addAffiliate({ app_id: 'app_2', affiliate_id: 'aff_3', status: 'suspended' });

    const response = await api.call('GET', '/console/api/affiliates?status=suspended&limit=10');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ affiliates: [expect.objectContaining({ affiliate_id: 'aff_2', status: 'suspended', plan: null })], next_cursor: null });
  });

  test('the report CSV is an attachment named after the affiliate and its range, the rows the portal makes', async () => {
    const { api } = await withAffiliate();

    const response = await api.call('GET', '/console/api/affiliates/aff_1/report.csv?from=2026-11-01&to=2026-11-02');

    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="affiliate-report-aff_1-2026-11-01-to-2026-11-02.csv"',
      'Cache-Control': 'no-store',
    });
    expect(response.text.split('\r\n').map((line) => line.split(',')[0])).toEqual(['row', 'day', 'day', 'total', '']);
  });

  test('a report needs its range: without one it is 400', async () => {
    const { api } = await withAffiliate();

    const response = await api.call('GET', '/console/api/affiliates/aff_1/report');

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(['from is required', 'to is required']);
  });
});

describe('click addresses in the console', () => {
  test('are only a path while the application has no portal origin, whatever Host the request names', async () => {
    const { api } = await withAffiliate();
    delete api.apps.apps.find((app) => app.app_id === 'app_1')!.portal_origin;
    await api.links.create({
      link_id: 'lnk_1',
      app_id: 'app_1',
      affiliate_id: 'aff_1',
      name: 'Spring',
      landing_url: 'https://casino.example/',
      created_at: '2026-11-02T00:00:00.000Z',
    });

    const response = await api.call('GET', '/console/api/affiliates/aff_1', { as: await api.signIn('viewer'), headers: { Host: 'evil.example' } });

    expect(response.body.affiliate.links[0].click_url).toBe('/t/lnk_1');
  });
});
