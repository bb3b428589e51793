import { describe, expect, test } from '@jest/globals';
import { commandLineActor } from '../../../functions/shared/domain/audit';
import { updateApp } from '../../../functions/shared/back-office/apps';
import { assignPlan, listAffiliatePage, setAffiliateStatus } from '../../../functions/shared/back-office/affiliates';
import { createPlan } from '../../../functions/shared/back-office/plans';
import type { App, AppStore } from '../../../functions/shared/domain/apps';
import { NotFound, ValidationError } from '../../../functions/shared/domain/errors';
import { validPlan, type PlanInput } from '../../../functions/shared/domain/plans';
import { MemoryAffiliateStore, MemoryPlanStore } from '../../support/affiliates';
import { MemoryAuditLog } from '../../support/enterprise';

class Apps implements Pick<AppStore, 'get' | 'update'> {
  readonly apps = new Map<string, App>([['app_1', { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z' }]]);
  async get(appId: string) {
    return this.apps.get(appId);
  }
  async update(appId: string, changes: Partial<App>) {
    const app = { ...this.apps.get(appId)!, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
    this.apps.set(appId, app);
    return app;
  }
}

async function setUp() {
  const affiliates = new MemoryAffiliateStore();
  for (const [appId, affiliateId] of [['app_1', 'aff_c'], ['app_1', 'aff_a'], ['app_1', 'aff_b'], ['app_2', 'aff_z']]) {
    await affiliates.register({
      app_id: appId,
      affiliate_id: affiliateId,
      email: `${affiliateId}@example.com`,
      username: affiliateId,
      first_name: 'F',
      last_name: 'L',
      password_hash: 'secret-hash',
      created_at: '2026-01-01T00:00:00Z',
    });
  }
  const office = { apps: new Apps() as unknown as AppStore, affiliates, plans: new MemoryPlanStore(), audit: new MemoryAuditLog(), now: () => new Date('2026-03-01T00:00:00Z') };
  return { office, affiliates };
}

const ids = { appId: 'app_1', planId: 'plan_1', createdAt: '2026-03-01T00:00:00Z' };
const planProblems = (input: PlanInput) => {
  try {
    validPlan(input, ids);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors;
  }
};

describe('plans', () => {
  test('a hybrid plan keeps its amounts with two decimals and its percent as given', () => {
    expect(validPlan({ name: ' Hybrid ', cpa: { amount: '50', min_deposit: '20.5' }, revshare: { percent: '25.5', carry_over: true } }, ids)).toEqual({
      app_id: 'app_1',
      plan_id: 'plan_1',
      name: 'Hybrid',
      cpa: { amount: '50.00', min_deposit: '20.50' },
      revshare: { percent: '25.5', carry_over: true },
      created_at: '2026-03-01T00:00:00Z',
    });
  });

  test('a CPA plan without a minimum pays every first deposit; a RevShare plan has no carry-over unless asked', () => {
    expect(validPlan({ name: 'CPA', cpa: { amount: '10' } }, ids).cpa).toEqual({ amount: '10.00', min_deposit: '0.00' });
    expect(validPlan({ name: 'RS', revshare: { percent: '100' } }, ids).revshare).toEqual({ percent: '100', carry_over: false });
  });

  test.each([
    [{ name: 'Nothing' }, 'a plan needs cpa, revshare or both'],
    [{ name: '', cpa: { amount: '1' } }, 'name must be 1 to 100 characters, without control characters'],
    [{ name: 'x', cpa: { amount: '1.005' } }, 'cpa amount must be an amount such as 50 or 49.99 (at most 2 decimals, at most 1000000000)'],
    [{ name: 'x', cpa: { amount: '-5' } }, 'cpa amount must be an amount such as 50 or 49.99 (at most 2 decimals, at most 1000000000)'],
    [{ name: 'x', cpa: { amount: '0' } }, 'cpa amount must be more than 0'],
    [{ name: 'x', cpa: { amount: '5', min_deposit: '1e3' } }, 'cpa min_deposit must be an amount such as 50 or 49.99 (at most 2 decimals, at most 1000000000)'],
    [{ name: 'x', revshare: { percent: '100.01' } }, 'revshare percent must be a number from 0 to 100 (at most 4 decimals)'],
    [{ name: 'x', revshare: { percent: '-1' } }, 'revshare percent must be a number from 0 to 100 (at most 4 decimals)'],
  ] as [PlanInput, string][])('%j is refused: "%s"', (input, message) => {
    expect(planProblems(input)).toEqual([message]);
  });

  test('a created plan is stored under the application; an unknown application is refused', async () => {
    const { office } = await setUp();

    const plan = await createPlan(office, 'app_1', { name: 'CPA', cpa: { amount: '50' } });

    expect(await office.plans.list('app_1')).toEqual([plan]);
    await expect(createPlan(office, 'app_9', { name: 'CPA', cpa: { amount: '50' } })).rejects.toThrow(NotFound);
  });
});

describe('affiliates in the back office', () => {
  test('approving and suspending show in the listing; an affiliate stored without status lists as approved', async () => {
    const { office } = await setUp();

    await setAffiliateStatus(office, 'app_1', 'aff_a', 'suspended');
    await setAffiliateStatus(office, 'app_1', 'aff_b', 'pending');
    await setAffiliateStatus(office, 'app_1', 'aff_b', 'approved');
    await setAffiliateStatus(office, 'app_1', 'aff_c', 'pending');

    const page = await listAffiliatePage(office, 'app_1');
    expect(page.affiliates.map((a) => [a.affiliate_id, a.status])).toEqual([
      ['aff_a', 'suspended'],
      ['aff_b', 'approved'],
      ['aff_c', 'pending'],
    ]);
    const untouched = await listAffiliatePage(office, 'app_2');
    expect(untouched.affiliates.map((a) => a.status)).toEqual(['approved']);
  });

  test("another application's affiliate cannot be changed", async () => {
    const { office } = await setUp();

    await expect(setAffiliateStatus(office, 'app_1', 'aff_z', 'suspended')).rejects.toThrow(NotFound);
    expect((await listAffiliatePage(office, 'app_2')).affiliates[0].status).toBe('approved');
  });

  test("an affiliate is put on one of its application's plans, never on another application's", async () => {
    const { office } = await setUp();
    const plan = await createPlan(office, 'app_1', { name: 'RS', revshare: { percent: '30' } });

    const assigned = await assignPlan(office, 'app_1', 'aff_a', plan.plan_id);

    expect(assigned.plan_id).toBe(plan.plan_id);
    await expect(assignPlan(office, 'app_1', 'aff_a', 'plan_unknown')).rejects.toThrow(NotFound);
  });

  test('pages by affiliate id behind a cursor, the last page without one; the listing never shows a password hash', async () => {
    const { office } = await setUp();

    const first = await listAffiliatePage(office, 'app_1', { limit: 2 });
    const second = await listAffiliatePage(office, 'app_1', { limit: 2, cursor: first.next_cursor! });

    expect(first.affiliates.map((a) => a.affiliate_id)).toEqual(['aff_a', 'aff_b']);
    expect(second).toEqual({
      affiliates: [{ affiliate_id: 'aff_c', username: 'aff_c', email: 'aff_c@example.com', first_name: 'F', last_name: 'L', status: 'approved', plan_id: null, created_at: '2026-01-01T00:00:00Z' }],
      next_cursor: null,
    });
    expect(JSON.stringify([first, second])).not.toContain('secret-hash');
  });

  test("a cursor of another application's listing, or no cursor at all, is refused", async () => {
    const { office } = await setUp();
    const other = await listAffiliatePage(office, 'app_2', { limit: 1 });
    const foreign = Buffer.from(JSON.stringify(['app_2', 'aff_z'])).toString('base64url');

    expect(other.next_cursor).toBeNull();
    await expect(listAffiliatePage(office, 'app_1', { cursor: foreign })).rejects.toThrow(ValidationError);
    await expect(listAffiliatePage(office, 'app_1', { cursor: 'not-a-cursor' })).rejects.toThrow(ValidationError);
  });

  test("the application's approval and default plan are set together, and the plan must be the application's", async () => {
    const { office } = await setUp();
    const plan = await createPlan(office, 'app_1', { name: 'CPA', cpa: { amount: '50' } });

    const app = await updateApp(office, 'app_1', commandLineActor, { affiliateApproval: 'approve', defaultPlanId: plan.plan_id });

    expect([app.affiliate_approval, app.default_plan_id]).toEqual(['approve', plan.plan_id]);
    await expect(updateApp(office, 'app_1', commandLineActor, { defaultPlanId: 'plan_other' })).rejects.toThrow(NotFound);
    await expect(updateApp(office, 'app_1', commandLineActor, { affiliateApproval: 'maybe' as 'approve' })).rejects.toThrow(ValidationError);
  });
});
