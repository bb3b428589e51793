/**
 * The console's routes for what the admin command line did alone: create a plan, an affiliate's tracking link,
 * its postbacks (URL, off, a new secret) and their delivery log, and the application's rejections.
 */
import { describe, expect, jest, test } from '@jest/globals';
import type { Rejection } from '../../../functions/domain/timeline';
import { consoleRouter } from '../../support/console-router';

/** The console with the affiliate aff_1, called by a marketer. */
async function withAffiliate() {
  const api = consoleRouter();
  await api.addAffiliate({ affiliate_id: 'aff_1', email: 'bo@example.com', username: 'bo' });
  return { api, marketer: await api.signIn('marketer', 'mia@example.com') };
}

describe('creating a plan from the console', () => {
  test('stores the plan in the application, answers 201 with its terms and writes plan.created naming who', async () => {
    const { api, marketer } = await withAffiliate();

    const response = await api.call('POST', '/console/api/plans', {
      as: marketer,
      body: { name: 'Hybrid', cpa: { amount: '50', min_deposit: '20' }, revshare: { percent: '25' } },
    });

    expect(response.status).toBe(201);
    expect(response.body.plan).toMatchObject({
      name: 'Hybrid',
      cpa: { amount: '50.00', min_deposit: '20.00' },
      revshare: { percent: '25' },
      terms: expect.stringContaining('CPA'),
    });
    expect(response.body.plan.app_id).toBeUndefined();
    expect(api.plans.plans).toEqual([expect.objectContaining({ app_id: 'app_1', plan_id: response.body.plan.plan_id })]);
    expect(api.audit.entries).toEqual([
      expect.objectContaining({
        app_id: 'app_1',
        actor: { user_id: marketer.userId, email: 'mia@example.com' },
        action: 'plan.created',
        target: `plan:${response.body.plan.plan_id}`,
      }),
    ]);
    expect((await api.call('GET', '/console/api/plans')).body.plans).toEqual([response.body.plan]);
  });

  test('a plan with neither CPA nor RevShare is 400 in words, and nothing is stored', async () => {
    const { api, marketer } = await withAffiliate();

    const response = await api.call('POST', '/console/api/plans', { as: marketer, body: { name: 'Nothing' } });

    expect([response.status, response.body.errors]).toEqual([400, ['a plan needs cpa, revshare or both']]);
    expect(api.plans.plans).toEqual([]);
  });

  test('a viewer is refused with 403, and without the CSRF token so is a marketer', async () => {
    const { api, marketer } = await withAffiliate();
    const body = { name: 'CPA', cpa: { amount: '50' } };

    const noToken = await api.call('POST', '/console/api/plans', { as: marketer, body, csrf: false });
    const viewer = await api.call('POST', '/console/api/plans', { as: await api.signIn('viewer'), body });

    expect([noToken.status, viewer.status]).toEqual([403, 403]);
    expect(api.plans.plans).toEqual([]);
  });
});

describe("creating an affiliate's tracking link from the console", () => {
  test("answers 201 with the click address on the application's portal origin, never the request's host, and writes link.created", async () => {
    const { api, marketer } = await withAffiliate();

    const response = await api.call('POST', '/console/api/affiliates/aff_1/links', {
      as: marketer,
      body: { name: 'Spring', landing_url: 'https://casino.example/welcome' },
    });

    expect(response.status).toBe(201);
    expect(response.body.link).toEqual({
      link_id: expect.any(String),
      name: 'Spring',
      landing_url: 'https://casino.example/welcome',
      created_at: expect.any(String),
      click_url: `https://portal.casino.example/t/${response.body.link.link_id}`,
    });
    expect([...api.links.links.values()]).toEqual([expect.objectContaining({ app_id: 'app_1', affiliate_id: 'aff_1', link_id: response.body.link.link_id })]);
    expect(api.audit.entries).toEqual([
      expect.objectContaining({
        action: 'link.created',
        target: 'affiliate:aff_1',
        details: { link_id: response.body.link.link_id, name: 'Spring', landing_url: 'https://casino.example/welcome' },
      }),
    ]);
  });

  test("a landing URL off the application's site origins is 400 naming them", async () => {
    const { api, marketer } = await withAffiliate();

    const response = await api.call('POST', '/console/api/affiliates/aff_1/links', {
      as: marketer,
      body: { name: 'Away', landing_url: 'https://elsewhere.example/' },
    });

    expect([response.status, response.body.errors]).toEqual([400, ["landing_url must be on one of the application's site origins: https://casino.example"]]);
    expect(api.links.links.size).toBe(0);
  });

  test("another application's affiliate is 404 and no link is made", async () => {
    const { api, marketer } = await withAffiliate();
    await api.addAffiliate({ app_id: 'app_2', affiliate_id: 'aff_theirs' });
    const read = jest.spyOn(api.affiliates, 'get');

    const response = await api.call('POST', '/console/api/affiliates/aff_theirs/links', {
      as: marketer,
      body: { name: 'Spring', landing_url: 'https://casino.example/' },
    });

    expect(response.status).toBe(404);
    expect(read).toHaveBeenCalledWith('app_1', 'aff_theirs');
    expect([api.links.links.size, api.audit.entries.length]).toEqual([0, 0]);
  });
});

describe("an affiliate's postbacks from the console", () => {
  test('the first URL makes a signing secret, answered once; the audit entry names the host, never the secret or the template', async () => {
    const { api, marketer } = await withAffiliate();
    const url = 'https://tracker.example/pb?e={event}&token=affiliates-own';

    const response = await api.call('POST', '/console/api/affiliates/aff_1/postbacks', { as: marketer, body: { action: 'set', postback_url: url } });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ postback_url_set: true, signing_secret: expect.any(String) });
    expect(api.secrets.values.get('apps/app_1/affiliates/aff_1/postback-secret')).toBe(response.body.signing_secret);
    expect(api.postbackSettings.urls.get('app_1#aff_1')).toBe(url);
    expect(api.audit.entries).toEqual([
      expect.objectContaining({ action: 'affiliate.postback_url_set', target: 'affiliate:aff_1', details: { host: 'tracker.example', secret_made: true } }),
    ]);
    expect(JSON.stringify(api.audit.entries)).not.toContain(response.body.signing_secret);
    expect(JSON.stringify(api.audit.entries)).not.toContain('affiliates-own');
  });

  test('a URL that is not https to a public host is 400 and nothing is written', async () => {
    const { api, marketer } = await withAffiliate();

    const response = await api.call('POST', '/console/api/affiliates/aff_1/postbacks', {
      as: marketer,
      body: { action: 'set', postback_url: 'http://10.0.0.1/pb' },
    });

    expect(response.status).toBe(400);
    expect(response.body.errors.join()).toMatch(/url/);
    expect([api.secrets.values.size, api.postbackSettings.urls.get('app_1#aff_1'), api.audit.entries.length]).toEqual([0, undefined, 0]);
  });

  test('off and a new secret are audited; a URL with anything but set is 400', async () => {
    const { api, marketer } = await withAffiliate();
    const change = (body: unknown) => api.call('POST', '/console/api/affiliates/aff_1/postbacks', { as: marketer, body });

    const off = await change({ action: 'off' });
    const rotated = await change({ action: 'rotate_secret' });
    const mixed = await change({ action: 'off', postback_url: 'https://tracker.example/' });

    expect([off.status, off.body]).toEqual([200, { postback_url_set: false }]);
    expect([rotated.status, rotated.body]).toEqual([200, { postback_url_set: false, signing_secret: expect.any(String) }]);
    expect([mixed.status, mixed.body]).toEqual([400, { message: 'request body is invalid', errors: ['postback_url goes with action "set" only'] }]);
    expect(api.audit.entries.map((entry) => entry.action)).toEqual(['affiliate.postbacks_off', 'affiliate.postback_secret_rotated']);
  });

  test("a viewer may not change them (403), and another application's affiliate is 404", async () => {
    const { api, marketer } = await withAffiliate();
    await api.addAffiliate({ app_id: 'app_2', affiliate_id: 'aff_theirs' });

    const theirs = await api.call('POST', '/console/api/affiliates/aff_theirs/postbacks', { as: marketer, body: { action: 'rotate_secret' } });
    const viewer = await api.call('POST', '/console/api/affiliates/aff_1/postbacks', { as: await api.signIn('viewer'), body: { action: 'rotate_secret' } });

    expect([theirs.status, viewer.status]).toEqual([404, 403]);
    expect([api.secrets.values.size, api.audit.entries.length]).toEqual([0, 0]);
  });

  test('a viewer reads whether they are on, to which host, and the delivery log newest first', async () => {
    const { api } = await withAffiliate();
    api.postbackSettings.urls.set('app_1#aff_1', 'https://tracker.example/pb?e={event}&token=affiliates-own');
    await api.postbackLog.append('app_1', 'aff_1', {
      event_id: 'ev_0',
      event: 'registration',
      at: '2026-11-01T00:00:00.000Z',
      attempts: 1,
      outcome: 'delivered',
      status_code: 200,
    });
    await api.postbackLog.append('app_1', 'aff_1', {
      event_id: 'ev_1',
      event: 'ftd',
      at: '2026-11-02T00:00:00.000Z',
      attempts: 1,
      outcome: 'delivered',
      status_code: 200,
    });
    const recent = jest.spyOn(api.postbackLog, 'recent');

    const response = await api.call('GET', '/console/api/affiliates/aff_1/postbacks?limit=20', { as: await api.signIn('viewer') });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      postback_url_set: true,
      postback_host: 'tracker.example',
      postback_events: ['registration', 'ftd'],
      deliveries: [
        { event_id: 'ev_1', event: 'ftd', at: '2026-11-02T00:00:00.000Z', attempts: 1, outcome: 'delivered', status_code: 200 },
        { event_id: 'ev_0', event: 'registration', at: '2026-11-01T00:00:00.000Z', attempts: 1, outcome: 'delivered', status_code: 200 },
      ],
    });
    expect(recent).toHaveBeenCalledWith('app_1', 'aff_1', 20);
    expect(response.text).not.toContain('affiliates-own');
  });
});

describe("the application's rejections in the console", () => {
  const rejection = (n: number, appId = 'app_1'): Rejection => ({
    app_id: appId,
    profile_id: `player-${n}`,
    urm_insert_id: `ins-${n}`,
    kind: 'event',
    shard: 'shardId-0',
    seq: String(n),
    reason: 'the profile was deleted',
    record: '{}',
    record_truncated: false,
    received_at: `2026-11-0${n}T00:00:00.000Z`,
    rejected_at: `2026-11-0${n}T00:00:01.000Z`,
  });

  test('pages newest first with a cursor bound to the application; the next page starts after the last one shown', async () => {
    const api = consoleRouter();
    for (const n of [1, 2, 3]) await api.rejections.put(rejection(n));
    await api.rejections.put(rejection(4, 'app_2'));
    const viewer = await api.signIn('viewer');

    const first = await api.call('GET', '/console/api/rejections?limit=2', { as: viewer });
    const second = await api.call('GET', `/console/api/rejections?limit=2&cursor=${first.body.next_cursor}`, { as: viewer });

    expect(first.status).toBe(200);
    expect(first.body.rejections.map((r: Rejection) => r.profile_id)).toEqual(['player-3', 'player-2']);
    expect(first.body.rejections[0]).not.toHaveProperty('rejection_id');
    expect(second.body).toEqual({ rejections: [expect.objectContaining({ profile_id: 'player-1' })], next_cursor: null });
    expect(api.rejections.pages[1]).toEqual({ appId: 'app_1', limit: 2, after: '2026-11-02T00:00:00.000Z#shardId-0#2' });
  });

  test('show a viewer no push subscription or device token of a row stored before they were redacted, nor a cut one that holds any', async () => {
    const api = consoleRouter();
    const subscription = JSON.stringify({
      endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/secret-path',
      keys: { p256dh: 'BPk', auth: 'authSecret' },
    });
    const whole = { app_id: 'app_1', profile_id: 'player-1', urm_set: { urm_web_push_notification_token: [subscription] }, urm_add: { name: 1 } };
    await api.rejections.put({ ...rejection(1), record: JSON.stringify(whole) });
    await api.rejections.put({ ...rejection(2), record: JSON.stringify({ ...whole, profile_id: 'player-2' }).slice(0, 120), record_truncated: true });
    await api.rejections.put({ ...rejection(3), record: JSON.stringify({ app_id: 'app_1', profile_id: 'player-3', city: 'Porto' }) });
    const viewer = await api.signIn('viewer');

    const listed = await api.call('GET', '/console/api/rejections', { as: viewer });

    const records = Object.fromEntries(listed.body.rejections.map((r: Rejection) => [r.profile_id, r.record]));
    expect(JSON.parse(records['player-1'])).toEqual({
      ...whole,
      urm_set: { urm_web_push_notification_token: ['<redacted push subscription: updates.push.services.mozilla.com>'] },
    });
    expect(records['player-2']).toBe('<not shown: cut to fit, and it holds push tokens or a proof>');
    expect(records['player-3']).toBe(JSON.stringify({ app_id: 'app_1', profile_id: 'player-3', city: 'Porto' }));
    expect(JSON.stringify(listed.body)).not.toMatch(/secret-path|authSecret|BPk/);
  });

  test("another application's cursor is 400, and nothing is read", async () => {
    const api = consoleRouter();
    const theirs = Buffer.from(JSON.stringify(['app_2', '2026-11-02T00:00:00.000Z#shardId-0#2'])).toString('base64url');

    const response = await api.call('GET', `/console/api/rejections?cursor=${theirs}`);

    expect([response.status, response.body.errors]).toEqual([400, ['cursor is not one this listing gave']]);
    expect(api.rejections.pages).toEqual([]);
  });
});
