/**
 * The back office's affiliate operations over HTTP on the local stack,
 * signed in through /enterprises/sign_in and /redirect as a browser is: an
 * affiliate registered with the server key is listed, approved and
 * suspended, put on a plan, reported on (JSON and CSV) and traced to the
 * deposit behind its commission; a viewer may read but not change; another
 * application's affiliate is not found by guessing its id.
 */
import { commandLineActor } from '../../functions/domain/audit';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { setMoneySettings } from '../../functions/back-office/money';
import { createPlan } from '../../functions/back-office/plans';
import type { BackOffice } from '../../functions/back-office/ports';
import type { Plan } from '../../functions/domain/affiliate-program';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { registerAffiliate } from '../support/affiliates';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { request } from '../support/http';
import { until } from '../support/profiles';
import { testStack, type TestStack } from '../support/local-stack';

interface TestApp {
  appId: string;
  serverKey: string;
}

let stack: TestStack;
let office: BackOffice;
let ours: TestApp;
let theirs: TestApp;
let admin: ConsoleSession;
let viewer: ConsoleSession;
let plan: Plan;
let affiliateId: string;
let theirAffiliateId: string;
let theirPlan: Plan;

const day = new Date().toISOString().slice(0, 10);
const range = `from=${day}&to=${day}`;

async function newApplication(): Promise<TestApp> {
  const app = await createApp(office, { name: `console affiliates ${randomUUID()}`, portalOrigin: stack.baseUrl });
  return { appId: app.app_id, serverKey: (await issueKey(office, app.app_id, commandLineActor, 'server')).key };
}

const registered = async (app: TestApp) => (await registerAffiliate(stack.baseUrl, app)).id;

const api = (method: 'GET' | 'POST', path: string, body?: unknown, as: ConsoleSession | null = admin) => consoleRequest(stack.baseUrl, as, method, path, body);

beforeAll(async () => {
  stack = await testStack();
  office = localBackOffice(localClients(stack.endpoints).document);
  [ours, theirs] = [await newApplication(), await newApplication()];
  await setMoneySettings(office, ours.appId, commandLineActor, { currency: 'EUR', money_events: { Deposit: 'deposit' } });
  plan = await createPlan(office, ours.appId, commandLineActor, { name: 'CPA 50', cpa: { amount: '50', min_deposit: '20' } });
  theirPlan = await createPlan(office, theirs.appId, commandLineActor, { name: 'Theirs', revshare: { percent: '40' } });
  admin = await consoleSignIn(stack.baseUrl, ours);
  viewer = await consoleSignIn(stack.baseUrl, ours, 'viewer');
  affiliateId = await registered(ours);
  theirAffiliateId = await registered(theirs);
}, 60_000);

describe('affiliates in the console', () => {
  test('lists the affiliate registered with the server key, pending and without a plan, and by status', async () => {
    const all = await api('GET', '/console/api/affiliates');
    const pending = await api('GET', '/console/api/affiliates?status=pending', undefined, viewer);
    const suspended = await api('GET', '/console/api/affiliates?status=suspended');

    expect(all.status).toBe(200);
    expect(all.body.affiliates).toEqual([
      expect.objectContaining({ affiliate_id: affiliateId, status: 'pending', plan: null, first_name: 'Ada', last_name: 'Lovelace' }),
    ]);
    expect(pending.body.affiliates.map((a: { affiliate_id: string }) => a.affiliate_id)).toEqual([affiliateId]);
    expect(suspended.body).toEqual({ affiliates: [], next_cursor: null });
  });

  test('approving and suspending change the status, each in the audit log as who did it', async () => {
    const approved = await api('POST', `/console/api/affiliates/${affiliateId}/status`, { status: 'approved' });
    const suspended = await api('POST', `/console/api/affiliates/${affiliateId}/status`, { status: 'suspended' });
    const again = await api('POST', `/console/api/affiliates/${affiliateId}/status`, { status: 'approved' });

    expect([approved.status, approved.body.affiliate.status, suspended.body.affiliate.status, again.body.affiliate.status]).toEqual([
      200,
      'approved',
      'suspended',
      'approved',
    ]);
    const audit = await api('GET', '/console/api/audit');
    expect(
      audit.body.entries
        .filter((e: { target: string }) => e.target === `affiliate:${affiliateId}`)
        .map((e: { action: string; actor: { user_id: string } }) => [e.action, e.actor.user_id]),
    ).toEqual([
      ['affiliate.approved', admin.userId],
      ['affiliate.suspended', admin.userId],
      ['affiliate.approved', admin.userId],
    ]);
  });

  test("assigns one of the application's plans, listed by GET /console/api/plans, and names it in the listing and the detail", async () => {
    const plans = await api('GET', '/console/api/plans', undefined, viewer);
    const assigned = await api('POST', `/console/api/affiliates/${affiliateId}/plan`, { plan_id: plans.body.plans[0].plan_id });
    const listed = await api('GET', '/console/api/affiliates');
    const detail = await api('GET', `/console/api/affiliates/${affiliateId}`, undefined, viewer);

    expect(plans.body.plans).toEqual([expect.objectContaining({ plan_id: plan.plan_id, name: 'CPA 50', cpa: { amount: '50.00', min_deposit: '20.00' } })]);
    expect([assigned.status, assigned.body.affiliate.plan_id]).toEqual([200, plan.plan_id]);
    expect(listed.body.affiliates[0].plan).toEqual({ plan_id: plan.plan_id, name: 'CPA 50' });
    expect(detail.status).toBe(200);
    expect(detail.body.affiliate).toMatchObject({
      affiliate_id: affiliateId,
      plan: { plan_id: plan.plan_id, name: 'CPA 50' },
      links: [],
      postback_url_set: false,
    });
    expect(JSON.stringify(detail.body)).not.toMatch(/password|scrypt/);
  });

  test("another application's plan is 404, and the affiliate keeps its plan", async () => {
    const refused = await api('POST', `/console/api/affiliates/${affiliateId}/plan`, { plan_id: theirPlan.plan_id });

    expect(refused.status).toBe(404);
    expect((await api('GET', `/console/api/affiliates/${affiliateId}`)).body.affiliate.plan_id).toBe(plan.plan_id);
  });

  test('the report, its CSV and the trace show the deposit of an attributed player, with the CPA it earned', async () => {
    await api('POST', `/console/api/affiliates/${affiliateId}/status`, { status: 'approved' });
    await api('POST', `/console/api/affiliates/${affiliateId}/plan`, { plan_id: plan.plan_id });
    const player = `player-${randomUUID()}`;
    const attributed = await request(stack.baseUrl, 'POST', '/api/set_affiliate', {
      key: ours.serverKey,
      body: { app_id: ours.appId, profile_id: player, urm_aff_id: affiliateId },
    });
    expect(attributed.status).toBe(200);
    const deposit = await request(stack.baseUrl, 'POST', '/events', {
      key: ours.serverKey,
      body: [{ app_id: ours.appId, profile_id: player, event: 'Deposit', amount: 25, currency: 'EUR', urm_date_time: new Date().toISOString() }],
    });
    expect(deposit.body.FailedRecordCount).toBe(0);

    const report = await until(
      () => api('GET', `/console/api/affiliates/${affiliateId}/report?${range}`, undefined, viewer),
      (r) => r.status === 200 && r.body.totals.ftds === 1,
      'the report to show the first deposit',
      30_000,
    );
    const trace = await until(
      () => api('GET', `/console/api/affiliates/${affiliateId}/trace?${range}`, undefined, viewer),
      (r) => r.status === 200 && r.body.players.some((p: { events: unknown[] }) => p.events.length === 1),
      'the trace to show the deposit',
      30_000,
    );
    const csv = await fetch(`${stack.baseUrl}/console/api/affiliates/${affiliateId}/report.csv?${range}`, { headers: { Cookie: viewer.cookie } });

    expect(report.body).toMatchObject({
      affiliate_id: affiliateId,
      currency: 'EUR',
      plan_id: plan.plan_id,
      totals: { registrations: 1, ftds: 1, deposits: '25.00', cpa: '50.00', commission: '50.00' },
    });
    expect(trace.body.registrations.map((r: { profile_id: string }) => r.profile_id)).toEqual([player]);
    expect(trace.body.ftds).toEqual([expect.objectContaining({ profile_id: player, qualified: true })]);
    expect(trace.body.players).toEqual([
      { profile_id: player, link_id: '-', events: [expect.objectContaining({ event: 'Deposit', kind: 'deposit', amount: 25 })] },
    ]);
    expect(trace.body.next_cursor).toBeNull();
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="affiliate-report-${affiliateId}-${day}-to-${day}.csv"`);
    const lines = (await csv.text()).trim().split('\r\n');
    // The sub-id and rate columns come after the first ones: no sub-id, no clicks (no rate), one FTD per registration.
    expect(lines.at(-1)).toBe('total,,,,0,1,1,1,25.00,0.00,0.00,50.00,0.00,50.00,EUR,,,1.0000');
  }, 60_000);
});

describe('what a role may not do, and what is not ours', () => {
  test('a viewer may not approve, suspend or assign a plan: 403 from the server, and nothing changes', async () => {
    const before = (await api('GET', `/console/api/affiliates/${affiliateId}`)).body.affiliate;

    const status = await api(
      'POST',
      `/console/api/affiliates/${affiliateId}/status`,
      { status: before.status === 'approved' ? 'suspended' : 'approved' },
      viewer,
    );
    const assigned = await api('POST', `/console/api/affiliates/${affiliateId}/plan`, { plan_id: plan.plan_id }, viewer);

    expect([status.status, status.body, assigned.status]).toEqual([403, { message: 'Forbidden' }, 403]);
    expect((await api('GET', `/console/api/affiliates/${affiliateId}`)).body.affiliate.status).toBe(before.status);
  });

  test('a marketer may suspend; without the CSRF token even an admin is refused', async () => {
    const marketer = await consoleSignIn(stack.baseUrl, ours, 'marketer');

    const withoutToken = await api('POST', `/console/api/affiliates/${affiliateId}/status`, { status: 'suspended' }, { ...admin, csrf: 'wrong' });
    const byMarketer = await api('POST', `/console/api/affiliates/${affiliateId}/status`, { status: 'suspended' }, marketer);

    expect([withoutToken.status, withoutToken.body]).toEqual([403, { message: 'CSRF token missing or invalid' }]);
    expect([byMarketer.status, byMarketer.body.affiliate.status]).toEqual([200, 'suspended']);
  });

  test("another application's affiliate is 404 by id on every operation, as an unknown one is", async () => {
    const paths = (id: string) =>
      [
        ['GET', `/console/api/affiliates/${id}`],
        ['GET', `/console/api/affiliates/${id}/report?${range}`],
        ['GET', `/console/api/affiliates/${id}/report.csv?${range}`],
        ['GET', `/console/api/affiliates/${id}/trace?${range}`],
        ['POST', `/console/api/affiliates/${id}/status`, { status: 'suspended' }],
        ['POST', `/console/api/affiliates/${id}/plan`, { plan_id: plan.plan_id }],
      ] as const;

    const guessed = await Promise.all(paths(theirAffiliateId).map(([method, path, body]) => api(method, path, body)));
    const unknown = await Promise.all(paths('aff_00000000000000000000').map(([method, path, body]) => api(method, path, body)));

    expect(guessed.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(unknown.map((r) => r.status)).toEqual(guessed.map((r) => r.status));
    const theirs_ = await request(stack.baseUrl, 'GET', '/api/affiliates', { key: theirs.serverKey });
    expect(theirs_.body.affiliates[0]).toMatchObject({ affiliate_id: theirAffiliateId, status: 'pending', plan_id: null });
  });

  test("the listing never shows another application's affiliates", async () => {
    const listed = await api('GET', '/console/api/affiliates', undefined, viewer);

    expect(listed.body.affiliates.map((a: { affiliate_id: string }) => a.affiliate_id)).toEqual([affiliateId]);
  });
});
