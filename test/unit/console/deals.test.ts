/** Deals in the console: assigning a plan from a day, editing a plan as a new version, archiving it (functions/console/affiliates). */
import { describe, expect, test } from '@jest/globals';
import { consoleRouter } from '../../support/console-router';
import { dayRow, ftdRow } from '../../support/affiliates';

// The console's clock says 2026-11-21; aff_1 was created on 2026-11-01.
const plan = { app_id: 'app_1', plan_id: 'plan_1', name: 'CPA 50', cpa: { amount: '50.00', min_deposit: '0.00' }, created_at: '2026-01-01T00:00:00.000Z' };

async function withAffiliate(stored: Record<string, unknown> = {}) {
  const api = consoleRouter();
  await api.addAffiliate({ affiliate_id: 'aff_1', ...stored });
  await api.plans.create(plan);
  return { api, marketer: await api.signIn('marketer', 'mia@example.com') };
}

const assign = (
  api: Awaited<ReturnType<typeof withAffiliate>>['api'],
  as: Awaited<ReturnType<typeof withAffiliate>>['marketer'],
  body: Record<string, unknown>,
) => api.call('POST', '/console/api/affiliates/aff_1/plan', { as, body });

describe('assigning a plan from a day', () => {
  test('a deal from a day ahead leaves today on the plan before it, and the detail lists both deals in words', async () => {
    const { api, marketer } = await withAffiliate({ plan_id: 'plan_1' });
    await api.plans.create({ ...plan, plan_id: 'plan_2', name: 'RevShare 30', cpa: undefined, revshare: { percent: '30', carry_over: false } });

    const response = await assign(api, marketer, { plan_id: 'plan_2', from: '2026-12-01' });
    const detail = await api.call('GET', '/console/api/affiliates/aff_1', { as: marketer });

    expect([response.status, response.body.affiliate.plan_id]).toEqual([200, 'plan_1']);
    expect(
      detail.body.affiliate.deals.map(({ from, plan_id, plan_version, name, description }: Record<string, unknown>) => ({
        from,
        plan_id,
        plan_version,
        name,
        description,
      })),
    ).toEqual([
      { from: '2026-11-01', plan_id: 'plan_1', plan_version: 1, name: 'CPA 50', description: 'CPA 50.00 (first deposit ≥ 0.00)' },
      { from: '2026-12-01', plan_id: 'plan_2', plan_version: 1, name: 'RevShare 30', description: 'RevShare 30 %' },
    ]);
    expect(api.audit.entries).toEqual([
      expect.objectContaining({ action: 'affiliate.plan_assigned', details: { from: 'plan_1', to: 'plan_2', version: 1, effective_from: '2026-12-01' } }),
    ]);
  });

  test('a past day is allowed while no month is closed, and refused within or before the last closed month: 400 naming from', async () => {
    const { api, marketer } = await withAffiliate();
    api.statementLock.closed.set('app_1#aff_1', '2026-11');

    const refused = await assign(api, marketer, { plan_id: 'plan_1', from: '2026-11-05' });
    api.statementLock.closed.clear();
    const allowed = await assign(api, marketer, { plan_id: 'plan_1', from: '2026-11-05' });

    expect([refused.status, refused.body.errors]).toEqual([400, ['from must be after 2026-11, the last month whose statement is approved']]);
    expect(allowed.status).toBe(200);
    expect(api.audit.entries.map((entry) => entry.details?.effective_from)).toEqual(['2026-11-05']);
  });

  test('a day before the affiliate existed, or one that is not a date, is a 400 naming from', async () => {
    const { api, marketer } = await withAffiliate();

    const early = await assign(api, marketer, { plan_id: 'plan_1', from: '2026-10-31' });
    const shape = await assign(api, marketer, { plan_id: 'plan_1', from: '1 Dec' });
    const unreal = await assign(api, marketer, { plan_id: 'plan_1', from: '2026-02-30' });

    expect([early.status, early.body.errors]).toEqual([400, ['from must not be before the affiliate was created (2026-11-01)']]);
    expect([shape.status, unreal.status, unreal.body.errors]).toEqual([400, 400, ['from must be a date YYYY-MM-DD']]);
    expect(shape.body.errors.join()).toMatch(/^from/);
    expect(api.audit.entries).toEqual([]);
  });

  test('assigning the same day again replaces that day’s deal', async () => {
    const { api, marketer } = await withAffiliate();
    await api.plans.create({ ...plan, plan_id: 'plan_2', name: 'CPA 30', cpa: { amount: '30.00', min_deposit: '0.00' } });

    await assign(api, marketer, { plan_id: 'plan_1', from: '2026-12-01' });
    api.clock.advance(1000);
    await assign(api, marketer, { plan_id: 'plan_2', from: '2026-12-01' });
    const detail = await api.call('GET', '/console/api/affiliates/aff_1', { as: marketer });

    expect(detail.body.affiliate.deals.map((deal: { from: string; plan_id: string }) => [deal.from, deal.plan_id])).toEqual([['2026-12-01', 'plan_2']]);
  });

  test('an archived plan is not assigned: 400 naming plan_id', async () => {
    const { api, marketer } = await withAffiliate();
    await api.call('POST', '/console/api/plans/plan_1/archive', { as: marketer });

    const response = await assign(api, marketer, { plan_id: 'plan_1' });

    expect([response.status, response.body.errors]).toEqual([400, ['plan_id plan_1 is archived: it is not assigned any more']]);
  });
});

describe('editing a plan', () => {
  test('makes a new version; the affiliate keeps earning under the version it was assigned, a new assignment takes the new one', async () => {
    const { api, marketer } = await withAffiliate();
    await assign(api, marketer, { plan_id: 'plan_1', from: '2026-11-01' });
    api.funnel.ftdRows.push(ftdRow('aff_1', '2026-11-10', '100.00', 'p1', 'app_1'));
    api.funnel.dayRows.push(dayRow('aff_1', '2026-11-10', { ftds: 1, deposits: '100.00' }));

    const edited = await api.call('POST', '/console/api/plans/plan_1', { as: marketer, body: { name: 'CPA 30', cpa: { amount: '30' } } });
    const report = await api.call('GET', '/console/api/affiliates/aff_1/report?from=2026-11-01&to=2026-11-30', { as: marketer });
    const versions = await api.call('GET', '/console/api/plans/plan_1/versions', { as: marketer });

    expect([edited.status, edited.body.plan.version, edited.body.plan.terms]).toEqual([200, 2, 'CPA 30.00 (first deposit ≥ 0.00)']);
    expect([report.body.totals.cpa, report.body.deals.map((deal: { plan_version: number }) => deal.plan_version)]).toEqual(['50.00', [1]]);
    expect(versions.body.versions.map((version: { version: number; name: string }) => [version.version, version.name])).toEqual([
      [1, 'CPA 50'],
      [2, 'CPA 30'],
    ]);
    expect(api.audit.entries.at(-1)).toEqual(
      expect.objectContaining({
        action: 'plan.edited',
        target: 'plan:plan_1',
        details: { version: 2, name: 'CPA 30', terms: 'CPA 30.00 (first deposit ≥ 0.00)' },
      }),
    );
  });

  test('terms that break a rule are a 400 naming the field, and no version is made', async () => {
    const { api, marketer } = await withAffiliate();

    const response = await api.call('POST', '/console/api/plans/plan_1', { as: marketer, body: { name: 'Bad', cpa: { amount: '0' } } });

    expect([response.status, response.body.errors]).toEqual([400, ['cpa amount must be more than 0']]);
    expect((await api.plans.get('app_1', 'plan_1'))?.version).toBe(1);
    expect(api.plans.versionItems).toHaveLength(1);
  });

  test('a plan of another application, an unknown one, or an archived one is not edited', async () => {
    const { api, marketer } = await withAffiliate();
    await api.plans.create({ ...plan, app_id: 'app_2', plan_id: 'plan_theirs' });
    await api.call('POST', '/console/api/plans/plan_1/archive', { as: marketer });

    const theirs = await api.call('POST', '/console/api/plans/plan_theirs', { as: marketer, body: { name: 'Mine', cpa: { amount: '1' } } });
    const archived = await api.call('POST', '/console/api/plans/plan_1', { as: marketer, body: { name: 'Again', cpa: { amount: '1' } } });

    expect([theirs.status, archived.status]).toEqual([404, 409]);
  });

  test('a viewer may read versions but not edit or archive', async () => {
    const { api } = await withAffiliate();
    const viewer = await api.signIn('viewer');

    const statuses = [
      (await api.call('POST', '/console/api/plans/plan_1', { as: viewer, body: { name: 'X', cpa: { amount: '1' } } })).status,
      (await api.call('POST', '/console/api/plans/plan_1/archive', { as: viewer })).status,
      (await api.call('GET', '/console/api/plans/plan_1/versions', { as: viewer })).status,
    ];

    expect(statuses).toEqual([403, 403, 200]);
  });

  test('a plan stored before versions is version 1: its first edit keeps those terms as version 1 and makes version 2', async () => {
    const api = consoleRouter();
    await api.addAffiliate({ affiliate_id: 'aff_1', plan_id: 'plan_old' });
    api.plans.legacy({ ...plan, plan_id: 'plan_old', name: 'Old CPA' });
    const marketer = await api.signIn('marketer');

    const before = await api.call('GET', '/console/api/plans/plan_old/versions', { as: marketer });
    await api.call('POST', '/console/api/plans/plan_old', { as: marketer, body: { name: 'New CPA', cpa: { amount: '20' } } });
    const after = await api.call('GET', '/console/api/plans/plan_old/versions', { as: marketer });
    const detail = await api.call('GET', '/console/api/affiliates/aff_1', { as: marketer });

    expect(before.body.versions.map((v: { version: number; name: string }) => [v.version, v.name])).toEqual([[1, 'Old CPA']]);
    expect(after.body.versions.map((v: { version: number; name: string }) => [v.version, v.name])).toEqual([
      [1, 'Old CPA'],
      [2, 'New CPA'],
    ]);
    expect(detail.body.affiliate.deals.map((deal: { plan_version: number; name: string }) => [deal.plan_version, deal.name])).toEqual([[1, 'Old CPA']]);
  });
});

describe('archiving a plan', () => {
  test('marks it archived, audited once; the affiliates on it keep their deal', async () => {
    const { api, marketer } = await withAffiliate({ plan_id: 'plan_1' });

    const first = await api.call('POST', '/console/api/plans/plan_1/archive', { as: marketer });
    const again = await api.call('POST', '/console/api/plans/plan_1/archive', { as: marketer });
    const detail = await api.call('GET', '/console/api/affiliates/aff_1', { as: marketer });

    expect([first.status, again.status, first.body.plan.archived_at]).toEqual([200, 200, '2026-11-21T10:00:00.000Z']);
    expect(api.audit.entries.map((entry) => entry.action)).toEqual(['plan.archived']);
    expect(detail.body.affiliate.plan).toEqual({ plan_id: 'plan_1', name: 'CPA 50' });
  });

  test('the default plan of new affiliates is not archived: 409', async () => {
    const { api, marketer } = await withAffiliate();
    await api.apps.update('app_1', { default_plan_id: 'plan_1' });

    const response = await api.call('POST', '/console/api/plans/plan_1/archive', { as: marketer });

    expect(response.status).toBe(409);
    expect((await api.plans.get('app_1', 'plan_1'))?.archived_at).toBeUndefined();
  });
});
