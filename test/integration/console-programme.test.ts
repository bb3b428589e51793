/**
 * What the admin command line alone did before, now from the console over HTTP on the local stack, signed in as a
 * browser is: create a plan and put an affiliate on it, create the affiliate's tracking link (its click address
 * redirects), set and turn off its postbacks (a secret shown once), and read the application's rejected records.
 * Every change is in the audit log; a viewer may read, not change; another application's affiliate is not found.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp, updateApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import type { BackOffice } from '../../functions/back-office/ports';
import { commandLineActor } from '../../functions/domain/audit';
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
let marketer: ConsoleSession;
let admin: ConsoleSession;
let viewer: ConsoleSession;
let affiliateId: string;
let theirAffiliateId: string;

async function newApplication(): Promise<TestApp> {
  const app = await createApp(office, { name: `console programme ${randomUUID()}`, portalOrigin: stack.baseUrl });
  await updateApp(office, app.app_id, commandLineActor, { siteOrigins: ['https://casino.example'] });
  return { appId: app.app_id, serverKey: (await issueKey(office, app.app_id, commandLineActor, 'server')).key };
}

const registered = async (app: TestApp) => (await registerAffiliate(stack.baseUrl, app)).id;

const api = (as: ConsoleSession, method: 'GET' | 'POST', path: string, body?: unknown) => consoleRequest(stack.baseUrl, as, method, path, body);
const auditActions = async () =>
  ((await api(admin, 'GET', '/console/api/audit')).body.entries as { action: string; actor: { user_id: string } }[])
    .filter((e) => e.actor.user_id === marketer.userId)
    .map((e) => e.action);

beforeAll(async () => {
  stack = await testStack();
  office = localBackOffice(localClients(stack.endpoints).document);
  [ours, theirs] = [await newApplication(), await newApplication()];
  admin = await consoleSignIn(stack.baseUrl, ours);
  marketer = await consoleSignIn(stack.baseUrl, ours, 'marketer');
  viewer = await consoleSignIn(stack.baseUrl, ours, 'viewer');
  affiliateId = await registered(ours);
  theirAffiliateId = await registered(theirs);
}, 60_000);

describe('plans and links from the console', () => {
  test('a marketer creates a plan, it is listed with its terms and can be assigned', async () => {
    const created = await api(marketer, 'POST', '/console/api/plans', { name: 'Hybrid', cpa: { amount: '40' }, revshare: { percent: '20', carry_over: true } });
    const listed = await api(viewer, 'GET', '/console/api/plans');
    const assigned = await api(marketer, 'POST', `/console/api/affiliates/${affiliateId}/plan`, { plan_id: created.body.plan?.plan_id });

    expect(created.status).toBe(201);
    expect(listed.body.plans).toEqual([expect.objectContaining({ plan_id: created.body.plan.plan_id, name: 'Hybrid', terms: created.body.plan.terms })]);
    expect([assigned.status, assigned.body.affiliate.plan_id]).toEqual([200, created.body.plan.plan_id]);
  });

  test('a viewer may not create a plan (403), and a refused plan is 400 in words', async () => {
    const byViewer = await api(viewer, 'POST', '/console/api/plans', { name: 'Nope', cpa: { amount: '40' } });
    const invalid = await api(marketer, 'POST', '/console/api/plans', { name: 'Bad', cpa: { amount: '-5' } });

    expect(byViewer.status).toBe(403);
    expect([invalid.status, invalid.body.errors]).toEqual([400, [expect.stringMatching(/^cpa amount must be an amount/)]]);
  });

  test("a link made in the console is on the affiliate's page, and its click address redirects to the landing URL", async () => {
    const created = await api(marketer, 'POST', `/console/api/affiliates/${affiliateId}/links`, {
      name: 'Spring',
      landing_url: 'https://casino.example/welcome',
    });
    const page = await api(viewer, 'GET', `/console/api/affiliates/${affiliateId}`);
    const click = await fetch(created.body.link.click_url, { redirect: 'manual' });

    expect(created.status).toBe(201);
    expect(page.body.affiliate.links).toEqual([expect.objectContaining({ link_id: created.body.link.link_id, click_url: created.body.link.click_url })]);
    expect(click.status).toBe(302);
    expect(new URL(click.headers.get('location')!).origin).toBe('https://casino.example');
  });

  test("another application's affiliate gets no link by id guessing (404)", async () => {
    const guessed = await api(marketer, 'POST', `/console/api/affiliates/${theirAffiliateId}/links`, {
      name: 'Spring',
      landing_url: 'https://casino.example/',
    });

    expect(guessed.status).toBe(404);
  });
});

describe('postbacks from the console', () => {
  test('setting a URL answers the signing secret once, turning them off is read back, and both are audited', async () => {
    const set = await api(marketer, 'POST', `/console/api/affiliates/${affiliateId}/postbacks`, {
      action: 'set',
      postback_url: 'https://tracker.example/pb?e={event}&id={event_id}',
    });
    const on = await api(viewer, 'GET', `/console/api/affiliates/${affiliateId}/postbacks`);
    const again = await api(marketer, 'POST', `/console/api/affiliates/${affiliateId}/postbacks`, {
      action: 'set',
      postback_url: 'https://tracker.example/v2?e={event}',
    });
    const off = await api(marketer, 'POST', `/console/api/affiliates/${affiliateId}/postbacks`, { action: 'off' });
    const read = await api(viewer, 'GET', `/console/api/affiliates/${affiliateId}/postbacks`);

    expect([set.status, set.body.postback_url_set, typeof set.body.signing_secret]).toEqual([200, true, 'string']);
    expect(on.body).toEqual({ postback_url_set: true, postback_host: 'tracker.example', postback_events: ['registration', 'ftd'], deliveries: [] });
    expect(again.body).toEqual({ postback_url_set: true });
    expect(off.body).toEqual({ postback_url_set: false });
    expect(read.body).toEqual({ postback_url_set: false, postback_host: null, postback_events: ['registration', 'ftd'], deliveries: [] });
    expect(await auditActions()).toEqual(expect.arrayContaining(['affiliate.postback_url_set', 'affiliate.postbacks_off', 'plan.created', 'link.created']));
  });

  test("a viewer may not change them, and another application's affiliate's are not found", async () => {
    const byViewer = await api(viewer, 'POST', `/console/api/affiliates/${affiliateId}/postbacks`, { action: 'rotate_secret' });
    const theirsRead = await api(viewer, 'GET', `/console/api/affiliates/${theirAffiliateId}/postbacks`);
    const theirsChanged = await api(marketer, 'POST', `/console/api/affiliates/${theirAffiliateId}/postbacks`, { action: 'off' });

    expect([byViewer.status, theirsRead.status, theirsChanged.status]).toEqual([403, 404, 404]);
  });
});

describe('rejections in the console', () => {
  test("a record the consumer refuses is listed with its reason for the application's users, and not for another application's", async () => {
    const profileId = `rejected-${randomUUID()}`;
    const records = [
      { app_id: ours.appId, profile_id: profileId, urm_date_time: '2026-11-21T10:00:00Z', nickname: 'ace' },
      { app_id: ours.appId, profile_id: profileId, urm_date_time: '2026-11-21T10:00:01Z', urm_insert_id: `bad-${profileId}`, urm_add: { nickname: 1 } },
    ];
    expect((await request(stack.baseUrl, 'POST', '/profiles', { key: ours.serverKey, body: records })).status).toBe(200);
    const theirViewer = await consoleSignIn(stack.baseUrl, theirs, 'viewer');

    const listed = await until(
      () => api(viewer, 'GET', '/console/api/rejections?limit=10'),
      (response) => response.body.rejections?.some((r: { profile_id: string }) => r.profile_id === profileId),
      'the rejection in the console',
    );
    const theirList = await api(theirViewer, 'GET', '/console/api/rejections');

    expect(listed.body.rejections.find((r: { profile_id: string }) => r.profile_id === profileId)).toMatchObject({
      urm_insert_id: `bad-${profileId}`,
      kind: 'profile',
      reason: expect.stringMatching(/urm_add needs a number, but nickname is a string/),
    });
    expect(theirList.body.rejections.some((r: { profile_id: string }) => r.profile_id === profileId)).toBe(false);
  });

  test("shows a viewer a rejected record's push subscription as its push service's host only, never its path or keys", async () => {
    const profileId = `rejected-${randomUUID()}`;
    const subscription = JSON.stringify({
      endpoint: `https://fcm.googleapis.com/fcm/send/${profileId}-device`,
      keys: { p256dh: `BP${profileId}`, auth: `auth-${profileId}` },
    });
    const records = [
      { app_id: ours.appId, profile_id: profileId, urm_date_time: '2026-11-21T10:00:00Z', nickname: 'ace' },
      {
        app_id: ours.appId,
        profile_id: profileId,
        urm_date_time: '2026-11-21T10:00:01Z',
        urm_insert_id: `bad-${profileId}`,
        urm_web_push_notification_token: [subscription],
        urm_add: { nickname: 1 },
      },
    ];
    expect((await request(stack.baseUrl, 'POST', '/profiles', { key: ours.serverKey, body: records })).status).toBe(200);

    const listed = await until(
      () => api(viewer, 'GET', '/console/api/rejections?limit=10'),
      (response) => response.body.rejections?.some((r: { profile_id: string }) => r.profile_id === profileId),
      'the rejection in the console',
    );

    const row = listed.body.rejections.find((r: { profile_id: string }) => r.profile_id === profileId);
    expect(JSON.parse(row.record).urm_web_push_notification_token).toEqual(['<redacted push subscription: fcm.googleapis.com>']);
    expect(JSON.stringify(listed.body)).not.toContain(`${profileId}-device`);
    expect(JSON.stringify(listed.body)).not.toContain(`auth-${profileId}`);
  });
});
