/**
 * The operator's side of the affiliate programme over HTTP with the server
 * key (GET /api/affiliates, GET /api/affiliates/{affiliate_id}/report) and
 * through the admin command line: statuses, plans, the application's settings.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, jest, test } from '@jest/globals';
import { adminProgram } from '../../bin/admin';
import { setAffiliateStatus } from '../../functions/back-office/affiliates';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import type { BackOffice } from '../../functions/back-office/ports';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { commandLineActor } from '../../functions/domain/audit';
import { registerAffiliate } from '../support/affiliates';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
let office: BackOffice;
beforeAll(async () => {
  stack = await testStack();
  office = localBackOffice(localClients(stack.endpoints).document);
});

interface TestApp {
  appId: string;
  serverKey: string;
}

async function newApp(): Promise<TestApp> {
  const app = await createApp(office, { name: `operator ${randomUUID()}` });
  return { appId: app.app_id, serverKey: (await issueKey(office, app.app_id, commandLineActor, 'server')).key };
}

const registered = async (app: TestApp, extra: Record<string, unknown> = {}) => (await registerAffiliate(stack.baseUrl, app, extra)).id;

const list = (app: TestApp, query = '') => request(stack.baseUrl, 'GET', `/api/affiliates${query}`, { key: app.serverKey });
const report = (app: TestApp, affiliateId: string, query: string) =>
  request(stack.baseUrl, 'GET', `/api/affiliates/${encodeURIComponent(affiliateId)}/report${query}`, { key: app.serverKey });

/** `npm run admin -- --json …` against the test stack, in this process (what it prints is its answer). */
async function admin(...args: string[]): Promise<any> {
  const printed = jest.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await adminProgram()
      .exitOverride()
      .parseAsync(['--data-dir', stack.dataDir, '--json', ...args], { from: 'user' });
    return JSON.parse(String(printed.mock.calls.at(-1)?.[0]));
  } finally {
    printed.mockRestore();
  }
}

describe('GET /api/affiliates', () => {
  test("pages through the key's application's affiliates only, each with status and plan", async () => {
    const [one, two] = [await newApp(), await newApp()];
    const ids = [await registered(one), await registered(one, { skype: 'ada.lovelace' })].sort();
    await registered(two);

    const first = await list(one, '?limit=1');
    const second = await list(one, `?limit=1&cursor=${first.body.next_cursor}`);

    expect([first.status, second.status]).toEqual([200, 200]);
    expect([...first.body.affiliates, ...second.body.affiliates].map((a: { affiliate_id: string }) => a.affiliate_id)).toEqual(ids);
    expect(second.body.next_cursor).toBeNull();
    expect(first.body.affiliates[0]).toMatchObject({ status: 'pending', plan_id: null });
    expect((await list(two)).body.affiliates.length).toBe(1);
  });

  test("refuses a cursor of another application's listing", async () => {
    const [one, two] = [await newApp(), await newApp()];
    await registered(two);
    await registered(two, { email: 'second@example.com', username: 'second' });
    const cursor = (await list(two, '?limit=1')).body.next_cursor;

    const response = await list(one, `?cursor=${cursor}`);

    expect(response.status).toBe(400);
  });

  test('approving and suspending through the back office show in the listing', async () => {
    const app = await newApp();
    const approved = await registered(app);
    const suspended = await registered(app, { email: 'other@example.com', username: 'other' });

    await setAffiliateStatus(office, app.appId, commandLineActor, approved, 'approved');
    await setAffiliateStatus(office, app.appId, commandLineActor, suspended, 'suspended');

    const statuses = Object.fromEntries((await list(app)).body.affiliates.map((a: { affiliate_id: string; status: string }) => [a.affiliate_id, a.status]));
    expect(statuses).toEqual({ [approved]: 'approved', [suspended]: 'suspended' });
  });
});

describe('GET /api/affiliates/{affiliate_id}/report', () => {
  test("answers 404 Not Found for another application's affiliate", async () => {
    const [one, two] = [await newApp(), await newApp()];
    const theirs = await registered(two);

    const response = await report(one, theirs, '?from=2026-03-01&to=2026-03-31');

    expect([response.status, response.body]).toEqual([404, { message: 'Not Found' }]);
  });

  test('answers an affiliate without activity a row of zeros per day, and 400 for a range over 366 days', async () => {
    const app = await newApp();
    const affiliateId = await registered(app);

    const answered = await report(app, affiliateId, '?from=2026-02-27&to=2026-03-01');
    const tooLong = await report(app, affiliateId, '?from=2025-01-01&to=2026-01-02');

    expect(answered.status).toBe(200);
    expect(answered.body.days.map((d: { date: string; commission: string }) => [d.date, d.commission])).toEqual([
      ['2026-02-27', '0.00'],
      ['2026-02-28', '0.00'],
      ['2026-03-01', '0.00'],
    ]);
    expect([tooLong.status, tooLong.body.errors]).toEqual([400, ['to must be at most 366 days from from (both included)']]);
  });
});

describe('plans and affiliate settings through the admin command line', () => {
  test('with approval on and a default plan, a new affiliate is approved on that plan; suspend and plan change it, audited as the command line', async () => {
    const app = await newApp();
    const plan = await admin(
      'plan',
      'create',
      '--app',
      app.appId,
      '--name',
      'Hybrid',
      '--cpa',
      '50',
      '--min-deposit',
      '20',
      '--revshare',
      '25',
      '--carry-over',
    );
    const other = await admin('plan', 'create', '--app', app.appId, '--name', 'RevShare', '--revshare', '30');
    await admin('app', 'update', app.appId, '--affiliate-approval', 'approve', '--default-plan', plan.plan_id);

    const affiliateId = await registered(app);
    const before = (await list(app)).body.affiliates[0];
    await admin('affiliate', 'suspend', '--app', app.appId, '--affiliate', affiliateId);
    await admin('affiliate', 'plan', '--app', app.appId, '--affiliate', affiliateId, '--plan', other.plan_id);
    const after = (await list(app)).body.affiliates[0];

    expect(plan).toMatchObject({ cpa: { amount: '50.00', min_deposit: '20.00' }, revshare: { percent: '25', carry_over: true } });
    expect([before.status, before.plan_id]).toEqual(['approved', plan.plan_id]);
    expect([after.status, after.plan_id]).toEqual(['suspended', other.plan_id]);
    expect((await admin('plan', 'list', '--app', app.appId)).map((p: { name: string }) => p.name)).toEqual(['Hybrid', 'RevShare']);
    const audited = (await office.audit.page(app.appId, { limit: 10 })).entries
      .filter((entry) => entry.action.startsWith('affiliate.'))
      .map(({ actor, action, target }) => ({ actor, action, target }));
    expect(audited).toEqual([
      { actor: commandLineActor, action: 'affiliate.plan_assigned', target: `affiliate:${affiliateId}` },
      { actor: commandLineActor, action: 'affiliate.suspended', target: `affiliate:${affiliateId}` },
    ]);
  });

  test('skype is stored like the other contact fields', async () => {
    const app = await newApp();
    const affiliateId = await registered(app, { skype: ' ada.lovelace ' });

    expect((await office.affiliates.get(app.appId, affiliateId))?.skype).toBe('ada.lovelace');
  });

  test("the demo application's default plan is the demo hybrid plan", async () => {
    const app = await office.apps.get(stack.dev.app_id);

    const plan = await office.plans.get(stack.dev.app_id, app!.default_plan_id!);

    expect(plan).toMatchObject({ name: 'Demo hybrid', cpa: { amount: '50.00', min_deposit: '20.00' }, revshare: { percent: '25', carry_over: true } });
  });
});
