import { describe, expect, test } from '@jest/globals';
import { commandLineActor } from '../../../functions/domain/audit';
import { updateApp } from '../../../functions/back-office/apps';
import { affiliateDetail, assignPlan, listAffiliatePage, listAffiliatesWithPlans, setAffiliateStatus } from '../../../functions/back-office/affiliates';
import { createPlan } from '../../../functions/back-office/plans';
import type { App, AppStore } from '../../../functions/domain/apps';
import { NotFound, ValidationError } from '../../../functions/domain/errors';
import { describePlan, validPlan, type PlanInput } from '../../../functions/domain/plans';
import { MemoryAffiliateStore, MemoryLinkStore, MemoryPlanStore, MemoryStatementLock } from '../../support/affiliates';
import { MemoryAuditLog } from '../../support/enterprise';
import { MemoryPostbackSettings } from '../../support/postbacks';

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
  for (const [appId, affiliateId] of [
    ['app_1', 'aff_c'],
    ['app_1', 'aff_a'],
    ['app_1', 'aff_b'],
    ['app_2', 'aff_z'],
  ]) {
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
  const office = {
    apps: new Apps() as unknown as AppStore,
    affiliates,
    plans: new MemoryPlanStore(),
    statementLock: new MemoryStatementLock(),
    audit: new MemoryAuditLog(),
    now: () => new Date('2026-03-01T00:00:00Z'),
  };
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

    const plan = await createPlan(office, 'app_1', commandLineActor, { name: 'CPA', cpa: { amount: '50' } });

    expect(await office.plans.list('app_1')).toEqual([plan]);
    await expect(createPlan(office, 'app_9', commandLineActor, { name: 'CPA', cpa: { amount: '50' } })).rejects.toThrow(NotFound);
  });

  test('creating a plan writes plan.created with who did it and the terms; a refused plan writes nothing', async () => {
    const { office } = await setUp();

    const plan = await createPlan(
      office,
      'app_1',
      { user_id: 'usr_1', email: 'ada@example.com' },
      { name: 'Hybrid', cpa: { amount: '50', min_deposit: '20' }, revshare: { percent: '25' } },
    );
    await expect(createPlan(office, 'app_1', commandLineActor, { name: 'Nothing' })).rejects.toThrow(ValidationError);

    expect(office.audit.entries.map(({ app_id, actor, action, target, details }) => ({ app_id, actor, action, target, details }))).toEqual([
      {
        app_id: 'app_1',
        actor: { user_id: 'usr_1', email: 'ada@example.com' },
        action: 'plan.created',
        target: `plan:${plan.plan_id}`,
        details: { name: 'Hybrid', terms: describePlan(plan) },
      },
    ]);
  });
});

describe('affiliates in the back office', () => {
  test('approving and suspending show in the listing; an affiliate stored without status lists as approved', async () => {
    const { office } = await setUp();

    await setAffiliateStatus(office, 'app_1', commandLineActor, 'aff_a', 'suspended');
    await office.affiliates.update('app_1', 'aff_b', { status: 'pending' });
    await setAffiliateStatus(office, 'app_1', commandLineActor, 'aff_b', 'approved');
    await office.affiliates.update('app_1', 'aff_c', { status: 'pending' });

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

    await expect(setAffiliateStatus(office, 'app_1', commandLineActor, 'aff_z', 'suspended')).rejects.toThrow(NotFound);
    expect((await listAffiliatePage(office, 'app_2')).affiliates[0].status).toBe('approved');
  });

  test("an affiliate is put on one of its application's plans, never on another application's", async () => {
    const { office } = await setUp();
    const plan = await createPlan(office, 'app_1', commandLineActor, { name: 'RS', revshare: { percent: '30' } });

    const assigned = await assignPlan(office, 'app_1', commandLineActor, 'aff_a', plan.plan_id);

    expect(assigned.plan_id).toBe(plan.plan_id);
    await expect(assignPlan(office, 'app_1', commandLineActor, 'aff_a', 'plan_unknown')).rejects.toThrow(NotFound);
  });

  test('pages by affiliate id behind a cursor, the last page without one; the listing never shows a password hash', async () => {
    const { office } = await setUp();

    const first = await listAffiliatePage(office, 'app_1', { limit: 2 });
    const second = await listAffiliatePage(office, 'app_1', { limit: 2, cursor: first.next_cursor! });

    expect(first.affiliates.map((a) => a.affiliate_id)).toEqual(['aff_a', 'aff_b']);
    expect(second).toEqual({
      affiliates: [
        {
          affiliate_id: 'aff_c',
          username: 'aff_c',
          email: 'aff_c@example.com',
          first_name: 'F',
          last_name: 'L',
          status: 'approved',
          plan_id: null,
          created_at: '2026-01-01T00:00:00Z',
        },
      ],
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
    const plan = await createPlan(office, 'app_1', commandLineActor, { name: 'CPA', cpa: { amount: '50' } });

    const app = await updateApp(office, 'app_1', commandLineActor, { affiliateApproval: 'approve', defaultPlanId: plan.plan_id });

    expect([app.affiliate_approval, app.default_plan_id]).toEqual(['approve', plan.plan_id]);
    await expect(updateApp(office, 'app_1', commandLineActor, { defaultPlanId: 'plan_other' })).rejects.toThrow(NotFound);
    await expect(updateApp(office, 'app_1', commandLineActor, { affiliateApproval: 'maybe' as 'approve' })).rejects.toThrow(ValidationError);
  });
});

describe('the console and the command line change affiliates through one audited use case', () => {
  const ada = { user_id: 'usr_1', email: 'ada@example.com' };

  test('approving a pending affiliate and suspending it write affiliate.approved and affiliate.suspended, with who and from what', async () => {
    const { office } = await setUp();
    await office.affiliates.update('app_1', 'aff_a', { status: 'pending' });

    await setAffiliateStatus(office, 'app_1', ada, 'aff_a', 'approved');
    await setAffiliateStatus(office, 'app_1', commandLineActor, 'aff_a', 'suspended');

    expect(office.audit.entries.map(({ actor, action, target, details }) => ({ actor, action, target, details }))).toEqual([
      { actor: ada, action: 'affiliate.approved', target: 'affiliate:aff_a', details: { from: 'pending', to: 'approved' } },
      { actor: commandLineActor, action: 'affiliate.suspended', target: 'affiliate:aff_a', details: { from: 'approved', to: 'suspended' } },
    ]);
    expect(office.audit.entries[0]!.at).toBe('2026-03-01T00:00:00.000Z');
  });

  test('giving the status it has changes nothing and writes no entry', async () => {
    const { office } = await setUp();

    const unchanged = await setAffiliateStatus(office, 'app_1', ada, 'aff_a', 'approved');

    expect(unchanged.status).toBe('approved');
    expect(office.audit.entries).toEqual([]);
  });

  test("another application's affiliate is not found and nothing is audited", async () => {
    const { office } = await setUp();

    await expect(setAffiliateStatus(office, 'app_1', ada, 'aff_z', 'suspended')).rejects.toThrow(NotFound);

    expect(office.audit.entries).toEqual([]);
  });

  test('assigning a plan writes affiliate.plan_assigned from the old plan to the new; the plan it is on writes nothing more', async () => {
    const { office } = await setUp();
    const first = await createPlan(office, 'app_1', commandLineActor, { name: 'CPA', cpa: { amount: '50' } });
    const second = await createPlan(office, 'app_1', commandLineActor, { name: 'RS', revshare: { percent: '30' } });

    await assignPlan(office, 'app_1', ada, 'aff_a', first.plan_id);
    await assignPlan(office, 'app_1', ada, 'aff_a', second.plan_id);
    await assignPlan(office, 'app_1', ada, 'aff_a', second.plan_id);

    expect(office.audit.entries.filter((entry) => entry.action !== 'plan.created').map(({ action, target, details }) => ({ action, target, details }))).toEqual(
      [
        { action: 'affiliate.plan_assigned', target: 'affiliate:aff_a', details: { from: null, to: first.plan_id, version: 1, effective_from: '2026-03-01' } },
        {
          action: 'affiliate.plan_assigned',
          target: 'affiliate:aff_a',
          details: { from: first.plan_id, to: second.plan_id, version: 1, effective_from: '2026-03-01' },
        },
      ],
    );
  });

  test("another application's plan is not found: the affiliate keeps its plan and nothing is audited", async () => {
    const { office } = await setUp();
    office.plans.plans.push(validPlan({ name: 'Theirs', cpa: { amount: '99' } }, { appId: 'app_2', planId: 'plan_theirs', createdAt: '2026-03-01T00:00:00Z' }));

    await expect(assignPlan(office, 'app_1', ada, 'aff_a', 'plan_theirs')).rejects.toThrow(NotFound);

    expect((await office.affiliates.get('app_1', 'aff_a'))?.plan_id).toBeUndefined();
    expect(office.audit.entries).toEqual([]);
  });
});

describe('the console reads affiliates', () => {
  test('a listing by status holds only that status; an affiliate stored without one is approved', async () => {
    const { office } = await setUp();
    await office.affiliates.update('app_1', 'aff_b', { status: 'suspended' });
    await office.affiliates.update('app_1', 'aff_c', { status: 'approved' });

    const approved = await listAffiliatePage(office, 'app_1', { status: 'approved' });
    const suspended = await listAffiliatePage(office, 'app_1', { status: 'suspended' });

    expect(approved.affiliates.map((a) => a.affiliate_id)).toEqual(['aff_a', 'aff_c']);
    expect(suspended.affiliates.map((a) => a.affiliate_id)).toEqual(['aff_b']);
  });

  test('each listed affiliate names its plan, and one without a plan has none', async () => {
    const { office } = await setUp();
    const plan = await createPlan(office, 'app_1', commandLineActor, { name: 'Hybrid', cpa: { amount: '50' }, revshare: { percent: '25' } });
    await assignPlan(office, 'app_1', commandLineActor, 'aff_b', plan.plan_id);

    const page = await listAffiliatesWithPlans(office, 'app_1');

    expect(page.affiliates.map((a) => [a.affiliate_id, a.plan])).toEqual([
      ['aff_a', null],
      ['aff_b', { plan_id: plan.plan_id, name: 'Hybrid' }],
      ['aff_c', null],
    ]);
    expect(page.next_cursor).toBeNull();
  });

  async function detailSetUp() {
    const { office } = await setUp();
    const links = new MemoryLinkStore();
    const settings = new MemoryPostbackSettings();
    await links.create({
      link_id: 'lnk_1',
      app_id: 'app_1',
      affiliate_id: 'aff_a',
      name: 'Spring',
      landing_url: 'https://casino.example/',
      created_at: '2026-02-01T00:00:00Z',
    });
    await links.create({
      link_id: 'lnk_2',
      app_id: 'app_1',
      affiliate_id: 'aff_b',
      name: 'Other',
      landing_url: 'https://casino.example/',
      created_at: '2026-02-01T00:00:00Z',
    });
    settings.urls.set('app_1#aff_a', 'https://tracker.example/pb?e={event}');
    settings.urls.set('app_1#aff_b', undefined);
    const plan = await createPlan(office, 'app_1', commandLineActor, { name: 'CPA', cpa: { amount: '50' } });
    await assignPlan(office, 'app_1', commandLineActor, 'aff_a', plan.plan_id);
    office.affiliates.affiliates.get('app_1#aff_a')!.skype = 'ada.lovelace';
    return { plan, read: affiliateDetail({ ...office, links, postbacks: { settings } }) };
  }

  test('one affiliate comes with its plan, contacts, links with their click address and whether postbacks are on, never the URL or a hash', async () => {
    const { plan, read } = await detailSetUp();

    const detail = await read('app_1', 'aff_a', 'https://api.example/');

    expect(detail).toEqual({
      affiliate_id: 'aff_a',
      username: 'aff_a',
      email: 'aff_a@example.com',
      first_name: 'F',
      last_name: 'L',
      status: 'approved',
      plan_id: plan.plan_id,
      plan: { plan_id: plan.plan_id, name: 'CPA' },
      created_at: '2026-01-01T00:00:00Z',
      contacts: { skype: 'ada.lovelace' },
      links: [
        {
          link_id: 'lnk_1',
          name: 'Spring',
          landing_url: 'https://casino.example/',
          created_at: '2026-02-01T00:00:00Z',
          click_url: 'https://api.example/t/lnk_1',
        },
      ],
      postback_url_set: true,
      deals: [
        {
          plan_id: plan.plan_id,
          plan_version: 1,
          from: '2026-03-01',
          assigned_at: '2026-03-01T00:00:00.000Z',
          assigned_by: 'admin command line',
          name: 'CPA',
          description: 'CPA 50.00 (first deposit ≥ 0.00)',
        },
      ],
    });
    expect(JSON.stringify(detail)).not.toMatch(/secret-hash|tracker\.example/);
    expect((await read('app_1', 'aff_b', 'https://api.example')).postback_url_set).toBe(false);
  });

  test("another application's affiliate is not found, like an unknown one", async () => {
    const { read } = await detailSetUp();

    await expect(read('app_1', 'aff_z', 'https://api.example')).rejects.toThrow(NotFound);
    await expect(read('app_1', 'aff_unknown', 'https://api.example')).rejects.toThrow(NotFound);
  });
});
