/**
 * send_push against a real push service on this machine (web-push-testing):
 * the message arrives encrypted and decrypts to the payload, an expired
 * subscription is removed from the profile after one send, and a profile
 * that said no receives nothing.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { ValidationError } from '../../functions/shared/domain/errors';
import { createApp } from '../../functions/shared/back-office/apps';
import { issueKey } from '../../functions/shared/back-office/keys';
import { generateVapidKeys } from '../../functions/shared/back-office/web-push';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { request } from '../support/http';
import { repoRoot, testStack, type TestStack } from '../support/local-stack';
import { applyAndRead, profileRecord, readTimeline, until } from '../support/profiles';
import { startPushService, tokenOf, type MintedSubscription, type PushService } from '../support/push-service';

let stack: TestStack;
let push: PushService;
let vapidKey: string;

before(async () => {
  stack = await testStack();
  push = await startPushService();
  const config = await request(stack.baseUrl, 'GET', `/push/config?app_id=${stack.dev.app_id}`, { key: stack.dev.browser_key });
  assert.equal(config.status, 200, JSON.stringify(config.body));
  vapidKey = config.body.vapid_public_key;
});
after(() => push.stop());

/** A browser of the profile: a subscription minted for the application's key, stored as the SDK stores it (browser key). */
async function subscribedBrowser(profileId: string): Promise<MintedSubscription> {
  const subscription = await push.subscribe(vapidKey);
  const stored = await request(stack.baseUrl, 'POST', `/profiles?app_id=${stack.dev.app_id}`, {
    key: stack.dev.browser_key,
    body: [profileRecord(stack, profileId, { urm_unique_append: { urm_web_push_notification_token: [tokenOf(subscription)] } })],
  });
  assert.equal(stored.status, 200, JSON.stringify(stored.body));
  return subscription;
}

const sendPush = (body: Record<string, unknown>, key = stack.dev.comms_key) =>
  request(stack.baseUrl, 'POST', '/api/send_push', { key, body: { app_id: stack.dev.app_id, ...body } });

const tokensOf = async (profileId: string) => ((await applyAndRead(stack, profileId, [])).urm_web_push_notification_token ?? []) as string[];

describe('POST /api/send_push', () => {
  test('delivers the notification encrypted to the push service, which decrypts it to the payload', async () => {
    const profileId = `push-${randomUUID()}`;
    const browser = await subscribedBrowser(profileId);
    await tokensOf(profileId);

    const response = await sendPush({ profile_id: profileId, title: 'Free spins', body: '10 free spins are waiting', url: 'https://casino.example/spins', ttl: 3600, urgency: 'high' });

    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.match(response.body.notification_id, /^[0-9a-f-]{36}$/);
    assert.deepEqual({ ...response.body, notification_id: 'n' }, { notification_id: 'n', sent: 1, failed: 0, removed: 0 });
    const messages = await push.messages(browser);
    assert.deepEqual(messages.map((m) => JSON.parse(m)), [
      {
        notification_id: response.body.notification_id,
        profile_id: profileId,
        title: 'Free spins',
        body: '10 free spins are waiting',
        url: 'https://casino.example/spins',
      },
    ]);
  });

  test('removes an expired subscription from the profile after one send, and keeps delivering to the others', async () => {
    const profileId = `push-${randomUUID()}`;
    const expired = await subscribedBrowser(profileId);
    const live = await subscribedBrowser(profileId);
    assert.equal((await tokensOf(profileId)).length, 2);
    await push.expire(expired);

    const response = await sendPush({ profile_id: profileId, title: 'Hello', body: '' });

    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual([response.body.sent, response.body.failed, response.body.removed], [1, 0, 1]);
    assert.deepEqual(await tokensOf(profileId), [tokenOf(live)]);
    assert.equal((await push.messages(live)).length, 1);
    assert.equal((await push.messages(expired)).length, 0);
  });

  test('sends nothing to a profile with urm_receives_notifications false', async () => {
    const profileId = `push-${randomUUID()}`;
    const browser = await subscribedBrowser(profileId);
    await applyAndRead(stack, profileId, [profileRecord(stack, profileId, { urm_set: { urm_receives_notifications: false } })]);

    const response = await sendPush({ profile_id: profileId, title: 'Hello', body: 'nobody should see this' });

    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual([response.body.sent, response.body.failed, response.body.removed], [0, 0, 0]);
    assert.deepEqual(await push.messages(browser), []);
  });

  test('records urm_push_sent on the timeline with the notification id', async () => {
    const profileId = `push-${randomUUID()}`;
    await subscribedBrowser(profileId);
    await tokensOf(profileId);

    const response = await sendPush({ profile_id: profileId, title: 'Timeline', body: 'b' });

    const events = await until(() => readTimeline(stack, profileId), (list) => list.length > 0, 'urm_push_sent on the timeline');
    assert.equal(events[0].event, 'urm_push_sent');
    assert.equal(events[0].urm_insert_id, `${response.body.notification_id}:sent`);
    assert.deepEqual(events[0].attributes, { notification_id: response.body.notification_id, title: 'Timeline', tokens: 1, sent: 1, failed: 0, gone: 0 });
  });

  test('answers 404 for a profile that does not exist', async () => {
    const response = await sendPush({ profile_id: `nobody-${randomUUID()}`, title: 't', body: 'b' });

    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: 'profile not found' });
  });

  test('answers 400 naming each invalid field', async () => {
    const response = await sendPush({ profile_id: 'p', body: 'b', url: 'ftp://x', ttl: 10_000_000, urgency: 'asap', image: 'x' });

    assert.equal(response.status, 400);
    assert.equal(response.body.message, 'request body is invalid');
    for (const field of ['title', 'url', 'ttl', 'urgency', 'image']) {
      assert.ok(response.body.errors.some((error: string) => error.includes(field)), `${field}: ${response.body.errors}`);
    }
  });

  test('answers 403 to a server or browser key, and for another application', async () => {
    for (const key of [stack.dev.server_key, stack.dev.browser_key]) {
      assert.equal((await sendPush({ profile_id: 'p', title: 't', body: 'b' }, key)).status, 403);
    }
    assert.equal((await sendPush({ app_id: 'app_other', profile_id: 'p', title: 't', body: 'b' })).status, 403);
  });
});

describe('VAPID keys from the back office', () => {
  test('an application without them answers 404 on GET /push/config and send_push', async () => {
    const office = localBackOffice(localClients(stack.endpoints).document);
    const app = await createApp(office, { name: 'No push yet' });
    const browserKey = (await issueKey(office, app.app_id, 'browser')).key;
    const commsKey = (await issueKey(office, app.app_id, 'comms')).key;

    const config = await request(stack.baseUrl, 'GET', `/push/config?app_id=${app.app_id}`, { key: browserKey });
    const send = await request(stack.baseUrl, 'POST', '/api/send_push', { key: commsKey, body: { app_id: app.app_id, profile_id: 'p', title: 't', body: 'b' } });

    assert.equal(config.status, 404);
    assert.deepEqual(config.body, { message: 'web push is not configured for this application' });
    assert.equal(send.status, 404);
  });

  test('npm run admin -- push vapid generates them once; --rotate replaces them', async () => {
    const office = localBackOffice(localClients(stack.endpoints).document);
    const app = await createApp(office, { name: 'Push via admin' });
    const browserKey = (await issueKey(office, app.app_id, 'browser')).key;
    // Not execFileSync: a blocked event loop misses the server closing an idle keep-alive socket, and the next request fails on it.
    const admin = async (...args: string[]) =>
      (
        await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/admin.ts', '--data-dir', stack.dataDir, '--json', ...args], {
          cwd: repoRoot,
          encoding: 'utf8',
          env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        })
      ).stdout;

    const created = JSON.parse(await admin('push', 'vapid', '--app', app.app_id, '--subject', 'mailto:ops@example.com'));
    await assert.rejects(admin('push', 'vapid', '--app', app.app_id), /has VAPID keys already/);
    const rotated = JSON.parse(await admin('push', 'vapid', '--app', app.app_id, '--rotate'));

    assert.match(created.vapid_public_key, /^B[A-Za-z0-9_-]{86}$/);
    assert.notEqual(rotated.vapid_public_key, created.vapid_public_key);
    assert.equal(rotated.vapid_subject, 'mailto:ops@example.com');
    assert.equal(JSON.stringify(created).includes('private'), false, 'the private key is never printed');
    const config = await request(stack.baseUrl, 'GET', `/push/config?app_id=${app.app_id}`, { key: browserKey });
    assert.deepEqual(config.body, { vapid_public_key: rotated.vapid_public_key });
  });

  test('a subject must be mailto: or https:', async () => {
    const office = localBackOffice(localClients(stack.endpoints).document);
    const app = await createApp(office, { name: 'Bad subject' });

    const problem = (pattern: RegExp) => (error: ValidationError) => error instanceof ValidationError && pattern.test(error.errors.join());
    await assert.rejects(generateVapidKeys(office, app.app_id, { subject: 'http://example.com' }), problem(/subject must be a mailto: address or an https: URL/));
    await assert.rejects(generateVapidKeys(office, app.app_id), problem(/a subject is required/));
  });
});
