/**
 * The programme view over HTTP on the local stack, as the console calls it: two affiliates of the application earn
 * from real events (a CPA on one player's first deposit, RevShare on another's bets and wins), and
 * GET /console/api/programme and its CSV show each one's month and the totals exact to the cent; another
 * application's affiliate is not in it; a month that is not YYYY-MM is a 400.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { setMoneySettings } from '../../functions/back-office/money';
import { createPlan } from '../../functions/back-office/plans';
import type { BackOffice } from '../../functions/back-office/ports';
import { commandLineActor } from '../../functions/domain/audit';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { registerAffiliate } from '../support/affiliates';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { until } from '../support/profiles';
import { attributedPlayer } from '../support/programme';
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
let cpaAffiliate: { id: string; username: string };
let revshareAffiliate: { id: string; username: string };
let theirAffiliate: { id: string; username: string };

const month = new Date().toISOString().slice(0, 7);

async function newApplication(): Promise<TestApp> {
  const app = await createApp(office, { name: `programme view ${randomUUID()}`, portalOrigin: stack.baseUrl });
  return { appId: app.app_id, serverKey: (await issueKey(office, app.app_id, commandLineActor, 'server')).key };
}

const api = (method: 'GET' | 'POST', path: string, body?: unknown, as: ConsoleSession = admin) => consoleRequest(stack.baseUrl, as, method, path, body);

beforeAll(async () => {
  stack = await testStack();
  office = localBackOffice(localClients(stack.endpoints).document);
  [ours, theirs] = [await newApplication(), await newApplication()];
  await setMoneySettings(office, ours.appId, commandLineActor, { currency: 'EUR', money_events: { Deposit: 'deposit', Bet: 'bet', Win: 'win' } });
  const cpa = await createPlan(office, ours.appId, commandLineActor, { name: 'CPA 50', cpa: { amount: '50', min_deposit: '20' } });
  const revshare = await createPlan(office, ours.appId, commandLineActor, { name: 'RevShare 30', revshare: { percent: '30' } });
  admin = await consoleSignIn(stack.baseUrl, ours);
  viewer = await consoleSignIn(stack.baseUrl, ours, 'viewer');
  cpaAffiliate = await registerAffiliate(stack.baseUrl, ours);
  revshareAffiliate = await registerAffiliate(stack.baseUrl, ours);
  theirAffiliate = await registerAffiliate(stack.baseUrl, theirs);
  for (const [affiliate, planId] of [
    [cpaAffiliate, cpa.plan_id],
    [revshareAffiliate, revshare.plan_id],
  ] as const) {
    expect((await api('POST', `/console/api/affiliates/${affiliate.id}/status`, { status: 'approved' })).status).toBe(200);
    expect((await api('POST', `/console/api/affiliates/${affiliate.id}/plan`, { plan_id: planId })).status).toBe(200);
  }
}, 60_000);

describe('the programme view', () => {
  test("shows each affiliate's month from real events, the totals exact to the cent, as JSON and CSV", async () => {
    await attributedPlayer(stack.baseUrl, ours, cpaAffiliate.id, [{ event: 'Deposit', amount: 25.1 }]);
    await attributedPlayer(stack.baseUrl, ours, revshareAffiliate.id, [
      { event: 'Deposit', amount: 10 },
      { event: 'Bet', amount: 40.1 },
      { event: 'Win', amount: 10 },
    ]);

    const view = await until(
      () => api('GET', '/console/api/programme', undefined, viewer),
      (r) => r.status === 200 && r.body.totals.ftds === 2 && r.body.totals.ngr === '30.10',
      'the programme to show both players',
      45_000,
    );
    const csv = await fetch(`${stack.baseUrl}/console/api/programme.csv?month=${month}`, { headers: { Cookie: viewer.cookie } });

    expect(view.body).toMatchObject({ month, currency: 'EUR', truncated: false });
    const rows = view.body.affiliates.map((row: Record<string, unknown>) => [
      row.affiliate_id,
      row.ftds,
      row.deposits,
      row.ngr,
      row.cpa,
      row.revshare,
      row.commission,
    ]);
    expect(rows).toEqual(
      expect.arrayContaining([
        [cpaAffiliate.id, 1, '25.10', '0.00', '50.00', '0.00', '50.00'],
        [revshareAffiliate.id, 1, '10.00', '30.10', '0.00', '9.03', '9.03'],
      ]),
    );
    expect(rows).toHaveLength(2);
    expect(view.body.totals).toEqual({
      clicks: 0,
      registrations: 2,
      ftds: 2,
      qualified_ftds: 2,
      deposits: '35.10',
      ngr: '30.10',
      cpa: '50.00',
      revshare: '9.03',
      commission: '59.03',
    });
    expect(view.body.top.by_commission.map((row: { affiliate_id: string }) => row.affiliate_id)).toEqual([cpaAffiliate.id, revshareAffiliate.id]);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="affiliate-programme-${month}.csv"`);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines).toContain(`affiliate,${month},${cpaAffiliate.id},${cpaAffiliate.username},approved,CPA 50,0,1,1,1,25.10,0.00,50.00,0.00,50.00,EUR`);
    expect(lines.at(-1)).toBe(`total,${month},,,,,0,2,2,2,35.10,30.10,50.00,9.03,59.03,EUR`);
    expect(JSON.stringify(view.body)).not.toContain(theirAffiliate.id);
  }, 90_000);

  test('an earlier month has the affiliates and no figures; a month that is not YYYY-MM is a 400', async () => {
    const earlier = await api('GET', '/console/api/programme?month=2025-01');
    const bad = await api('GET', '/console/api/programme?month=January');

    expect([earlier.status, earlier.body.affiliates.length, earlier.body.totals.commission]).toEqual([200, 2, '0.00']);
    expect(bad.status).toBe(400);
  });
});
