/**
 * Versioned deals over HTTP on the local stack, as the console's browser
 * calls them: a plan edited makes a new version, a plan stored before versions reads as version 1, a deal from a
 * day ahead is listed beside today's, a bad day or an archived plan is a
 * 400 naming the field.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { createPlan } from '../../functions/back-office/plans';
import type { BackOffice } from '../../functions/back-office/ports';
import type { Plan } from '../../functions/domain/affiliate-program';
import { commandLineActor } from '../../functions/domain/audit';
import { tables } from '../../functions/manifest/resources';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { registerAffiliate } from '../support/affiliates';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
let office: BackOffice;
let document: ReturnType<typeof localClients>['document'];
let appId: string;
let admin: ConsoleSession;
let plan: Plan;
let affiliateId: string;

const today = new Date().toISOString().slice(0, 10);
const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const api = (method: 'GET' | 'POST', path: string, body?: unknown) => consoleRequest(stack.baseUrl, admin, method, path, body);

beforeAll(async () => {
  stack = await testStack();
  document = localClients(stack.endpoints).document;
  office = localBackOffice(document);
  const app = await createApp(office, { name: `deals ${randomUUID()}`, portalOrigin: stack.baseUrl });
  appId = app.app_id;
  const serverKey = (await issueKey(office, appId, commandLineActor, 'server')).key;
  plan = await createPlan(office, appId, commandLineActor, { name: 'CPA 50', cpa: { amount: '50', min_deposit: '20' } });
  admin = await consoleSignIn(stack.baseUrl, { appId, serverKey });
  affiliateId = (await registerAffiliate(stack.baseUrl, { appId, serverKey })).id;
}, 60_000);

describe('deals through the console API', () => {
  test('editing a plan makes version 2 and keeps version 1', async () => {
    const edited = await api('POST', `/console/api/plans/${plan.plan_id}`, { name: 'CPA 40', cpa: { amount: '40', min_deposit: '20' } });
    const versions = await api('GET', `/console/api/plans/${plan.plan_id}/versions`);

    expect([edited.status, edited.body.plan.version]).toEqual([200, 2]);
    expect(versions.body.versions.map((version: { version: number }) => version.version)).toEqual([1, 2]);
  });

  test('a deal from a day ahead is listed after today’s, each with its version in words', async () => {
    const next = await createPlan(office, appId, commandLineActor, { name: 'CPA 60', cpa: { amount: '60' } });
    await api('POST', `/console/api/affiliates/${affiliateId}/plan`, { plan_id: plan.plan_id });
    const ahead = await api('POST', `/console/api/affiliates/${affiliateId}/plan`, { plan_id: next.plan_id, from: daysFromNow(10) });
    const detail = await api('GET', `/console/api/affiliates/${affiliateId}`);

    expect(ahead.status).toBe(200);
    expect(detail.body.affiliate.deals.map((deal: { from: string; name: string; plan_version: number }) => [deal.from, deal.name, deal.plan_version])).toEqual([
      [today, 'CPA 40', 2],
      [daysFromNow(10), 'CPA 60', 1],
    ]);
    expect(detail.body.affiliate.plan_id).toBe(plan.plan_id);
  });

  test('a day before the affiliate existed, or too far ahead, is a 400 naming from; an archived plan a 400 naming plan_id', async () => {
    const other = await createPlan(office, appId, commandLineActor, { name: 'RevShare', revshare: { percent: '25' } });
    const archived = await api('POST', `/console/api/plans/${other.plan_id}/archive`);

    const past = await api('POST', `/console/api/affiliates/${affiliateId}/plan`, { plan_id: plan.plan_id, from: '2020-01-01' });
    const far = await api('POST', `/console/api/affiliates/${affiliateId}/plan`, { plan_id: plan.plan_id, from: daysFromNow(400) });
    const onArchived = await api('POST', `/console/api/affiliates/${affiliateId}/plan`, { plan_id: other.plan_id });

    expect(archived.body.plan.archived_at).toEqual(expect.any(String));
    expect([past.status, past.body.errors[0]]).toEqual([400, expect.stringMatching(/^from must not be before/)]);
    expect([far.status, far.body.errors]).toEqual([400, ['from must be at most 366 days after today']]);
    expect([onArchived.status, onArchived.body.errors[0]]).toEqual([400, expect.stringMatching(/^plan_id .* is archived/)]);
  });

  test('a plan stored before versions reads as version 1, and its first edit keeps it as version 1', async () => {
    const legacy = {
      app_id: appId,
      sk: 'plan#plan_legacy',
      plan_id: 'plan_legacy',
      name: 'Old',
      cpa: { amount: '10.00', min_deposit: '0.00' },
      created_at: '2025-01-01T00:00:00Z',
    };
    await document.send(new PutCommand({ TableName: tables.affiliates.localName, Item: legacy }));

    const before = await api('GET', '/console/api/plans/plan_legacy/versions');
    const edited = await api('POST', '/console/api/plans/plan_legacy', { name: 'New', cpa: { amount: '12' } });
    const after = await api('GET', '/console/api/plans/plan_legacy/versions');

    expect(before.body.versions.map((v: { version: number; name: string }) => [v.version, v.name])).toEqual([[1, 'Old']]);
    expect(edited.body.plan.version).toBe(2);
    expect(after.body.versions.map((v: { version: number; name: string }) => [v.version, v.name])).toEqual([
      [1, 'Old'],
      [2, 'New'],
    ]);
  });
});
