/**
 * The statement flow as the issue's acceptance asks, through HTTP on the
 * local stack: the operator approves a month in the console API, an
 * integrator then sends a late deposit for that month through /events; the
 * approved statement is unchanged and the next one carries the difference as
 * a late adjustment with its reason; the operator marks that one paid, and
 * the affiliate sees it in the portal.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { setMoneySettings } from '../../functions/back-office/money';
import { createPlan } from '../../functions/back-office/plans';
import { commandLineActor } from '../../functions/domain/audit';
import { addMonths, lateReason, monthOf } from '../../functions/domain/statements';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { request } from '../support/http';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { testStack, type TestStack } from '../support/local-stack';
import { backdateAffiliate, PortalVisitor, registeredAffiliate } from '../support/portal';
import { send, until } from '../support/profiles';

let stack: TestStack;
let admin: ConsoleSession;
let app: { appId: string; serverKey: string };
let planId: string;
const api = (method: 'GET' | 'POST', path: string, body?: unknown) => consoleRequest(stack.baseUrl, admin, method, path, body);

beforeAll(async () => {
  stack = await testStack();
  const office = localBackOffice(localClients(stack.endpoints).document);
  const created = await createApp(office, { name: `statements ${randomUUID()}`, portalOrigin: stack.baseUrl });
  app = { appId: created.app_id, serverKey: (await issueKey(office, created.app_id, commandLineActor, 'server')).key };
  await setMoneySettings(office, app.appId, commandLineActor, { currency: 'EUR', money_events: { Deposit: 'deposit' } });
  planId = (await createPlan(office, app.appId, commandLineActor, { name: 'CPA 50', cpa: { amount: '50', min_deposit: '20' } })).plan_id;
  admin = await consoleSignIn(stack.baseUrl, app);
}, 60_000);

/** A first deposit of the player on `day` (a month that has ended), attributed to the affiliate first. */
async function depositOn(affiliateId: string, day: string, amount: number) {
  const player = `stmt-player-${randomUUID()}`;
  const attributed = await request(stack.baseUrl, 'POST', '/api/set_affiliate', {
    key: app.serverKey,
    body: { app_id: app.appId, profile_id: player, urm_aff_id: affiliateId },
  });
  expect(attributed.status).toBe(200);
  const deposit = {
    app_id: app.appId,
    profile_id: player,
    event: 'Deposit',
    amount,
    currency: 'EUR',
    urm_date_time: `${day}T12:00:00.000Z`,
    urm_insert_id: randomUUID(),
  };
  await send({ ...stack, dev: { ...stack.dev, server_key: app.serverKey } }, '/events', [deposit]);
}

describe('monthly statements through the console API', () => {
  test('an approved month stays as approved, late activity goes on the next statement with its reason, and the paid statement shows in the portal', async () => {
    const affiliate = await registeredAffiliate(stack, app.appId, app.serverKey);
    const id = affiliate.affiliate_id;
    const thisMonth = monthOf(new Date());
    const [closed, next] = [addMonths(thisMonth, -2), addMonths(thisMonth, -1)];
    // An affiliate of three months' standing (arranged as stored), whose deal has run since the statement's month.
    await backdateAffiliate(stack, app.appId, id, `${addMonths(thisMonth, -3)}-01T00:00:00.000Z`);
    expect((await api('POST', `/console/api/affiliates/${id}/status`, { status: 'approved' })).status).toBe(200);
    expect((await api('POST', `/console/api/affiliates/${id}/plan`, { plan_id: planId, from: `${closed}-01` })).status).toBe(200);
    const statementsOf = async () => (await api('GET', `/console/api/affiliates/${id}/statements`)).body;
    const monthIn = (list: { statements: { month: string }[] }, month: string) => list.statements.find((s) => s.month === month) as Record<string, unknown>;

    await depositOn(id, `${closed}-10`, 100);
    await until(statementsOf, (list) => monthIn(list, closed)?.cpa === '50.00', 'the first deposit on the statement', 60_000);
    const approved = await api('POST', `/console/api/affiliates/${id}/statements/${closed}/approve`);
    const again = await api('POST', `/console/api/affiliates/${id}/statements/${closed}/approve`);

    expect(approved.status).toBe(200);
    expect(approved.body.statement).toMatchObject({ month: closed, status: 'approved', cpa: '50.00', total: '50.00', due: '50.00' });
    expect(again.status).toBe(409);

    // The late event: another first deposit, dated in the approved month.
    await depositOn(id, `${closed}-15`, 30);
    const withLate = await until(
      statementsOf,
      (list) => (monthIn(list, next)?.adjustments as unknown[] | undefined)?.length === 1,
      'the late adjustment on the next statement',
      60_000,
    );

    expect(monthIn(withLate, closed)).toMatchObject({ status: 'approved', cpa: '50.00', total: '50.00' });
    expect(monthIn(withLate, next)).toMatchObject({
      status: 'open',
      cpa: '0.00',
      adjustments: [expect.objectContaining({ kind: 'late', amount: '50.00', reason: lateReason(closed), for_month: closed })],
      total: '50.00',
    });

    expect((await api('POST', `/console/api/affiliates/${id}/statements/${next}/approve`)).status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const paid = await api('POST', `/console/api/affiliates/${id}/statements/${next}/payment`, { reference: 'WIRE-2042', paid_at: today });
    const paidAgain = await api('POST', `/console/api/affiliates/${id}/statements/${next}/payment`, { reference: 'WIRE-2043', paid_at: today });

    expect(paid.status).toBe(200);
    expect(paid.body.statement).toMatchObject({ status: 'paid', payment: { reference: 'WIRE-2042', paid_at: today } });
    expect(paidAgain.status).toBe(409);

    const visitor = new PortalVisitor(stack.baseUrl, app.appId);
    expect((await visitor.signIn(affiliate.username, affiliate.password)).status).toBe(303);
    const payments = await visitor.get('payments');
    const printable = await visitor.get(`statement?month=${next}`);

    expect(payments.status).toBe(200);
    expect(payments.text).toContain('WIRE-2042');
    expect(payments.text).toMatch(/<td class="left">Paid<\/td>/);
    expect(printable.status).toBe(200);
    expect(printable.text).toContain(lateReason(closed));
  }, 180_000);

  test('of two first approvals of different months at once, one is approved and the other is 409: no month is left between', async () => {
    const affiliate = await registeredAffiliate(stack, app.appId, app.serverKey);
    const id = affiliate.affiliate_id;
    const thisMonth = monthOf(new Date());
    await backdateAffiliate(stack, app.appId, id, `${addMonths(thisMonth, -4)}-01T00:00:00.000Z`);
    const [earlier, later] = [addMonths(thisMonth, -3), addMonths(thisMonth, -1)];

    const answers = await Promise.all([earlier, later].map((month) => api('POST', `/console/api/affiliates/${id}/statements/${month}/approve`)));

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const approved = (await api('GET', `/console/api/affiliates/${id}/statements`)).body.statements.filter(
      (statement: { status: string }) => statement.status !== 'open',
    );
    expect(approved).toHaveLength(1);
  }, 60_000);
});
