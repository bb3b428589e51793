/**
 * send_push against a real push service on this machine (web-push-testing):
 * the message arrives encrypted and decrypts to the payload, an expired
 * subscription is removed from the profile after one send, and a profile
 * that said no receives nothing.
 */
import { commandLineActor } from '../../functions/domain/audit';
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ValidationError } from '../../functions/domain/errors';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { generateVapidKeys } from '../../functions/back-office/web-push';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { request } from '../support/http';
import { adminCli, testStack, type TestStack } from '../support/local-stack';
import { identitySecretOf, proofOf } from '../support/identity';
import { applyAndRead, profileRecord, readTimeline, until } from '../support/profiles';
import { startPushService, tokenOf, type MintedSubscription, type PushService } from '../support/push-service';

let stack: TestStack;
let push: PushService;
let vapidKey: string;

beforeAll(async () => {
  stack = await testStack();
  push = await startPushService();
  const config = await request(stack.baseUrl, 'GET', `/push/config?app_id=${stack.dev.app_id}`, { key: stack.dev.browser_key });
  expect(config.status).toBe(200);
  vapidKey = config.body.vapid_public_key;
});
afterAll(() => push.stop());

/** A browser of the profile: a subscription minted for the application's key, stored as the SDK stores it (browser key). */
async function subscribedBrowser(profileId: string): Promise<MintedSubscription> {
  const subscription = await push.subscribe(vapidKey);
  const stored = await request(stack.baseUrl, 'POST', `/profiles?app_id=${stack.dev.app_id}`, {
    key: stack.dev.browser_key,
    headers: { Origin: new URL(stack.baseUrl).origin },
    body: [
      profileRecord(stack, profileId, {
        urm_unique_append: { urm_web_push_notification_token: [tokenOf(subscription)] },
        urm_profile_id_hash: proofOf(await identitySecretOf(stack), profileId),
      }),
    ],
  });
  expect(stored.status).toBe(200);
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

    const response = await sendPush({
      profile_id: profileId,
      title: 'Free spins',
      body: '10 free spins are waiting',
      url: 'https://casino.example/spins',
      ttl: 3600,
      urgency: 'high',
    });

    expect(response.status).toBe(200);
    expect(response.body.notification_id).toMatch(/^[0-9a-f-]{36}$/);
    expect({ ...response.body, notification_id: 'n' }).toEqual({ notification_id: 'n', sent: 1, failed: 0, removed: 0, unsent: 0, skipped: 0 });
    const messages = await push.messages(browser);
    expect(messages.map((m) => JSON.parse(m))).toEqual([
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
    expect((await tokensOf(profileId)).length).toBe(2);
    await push.expire(expired);

    const response = await sendPush({ profile_id: profileId, title: 'Hello', body: '' });

    expect(response.status).toBe(200);
    expect([response.body.sent, response.body.failed, response.body.removed]).toEqual([1, 0, 1]);
    expect(await tokensOf(profileId)).toEqual([tokenOf(live)]);
    expect((await push.messages(live)).length).toBe(1);
    expect((await push.messages(expired)).length).toBe(0);
  });

  test('sends nothing to a profile with urm_receives_notifications false', async () => {
    const profileId = `push-${randomUUID()}`;
    const browser = await subscribedBrowser(profileId);
    await applyAndRead(stack, profileId, [profileRecord(stack, profileId, { urm_set: { urm_receives_notifications: false } })]);

    const response = await sendPush({ profile_id: profileId, title: 'Hello', body: 'nobody should see this' });

    expect(response.status).toBe(200);
    expect([response.body.sent, response.body.failed, response.body.removed]).toEqual([0, 0, 0]);
    expect(await push.messages(browser)).toEqual([]);
  });

  test('records urm_push_sent on the timeline with the notification id', async () => {
    const profileId = `push-${randomUUID()}`;
    await subscribedBrowser(profileId);
    await tokensOf(profileId);

    const response = await sendPush({ profile_id: profileId, title: 'Timeline', body: 'b' });

    const events = await until(
      () => readTimeline(stack, profileId),
      (list) => list.length > 0,
      'urm_push_sent on the timeline',
    );
    expect(events[0].event).toBe('urm_push_sent');
    expect(events[0].urm_insert_id).toBe(`${response.body.notification_id}:sent`);
    expect(events[0].attributes).toEqual({
      notification_id: response.body.notification_id,
      title: 'Timeline',
      tokens: 1,
      sent: 1,
      failed: 0,
      gone: 0,
      unsent: 0,
      skipped: 0,
    });
  });

  test('a subscription whose endpoint is no push service is refused when stored (400 naming the field), so it is never sent to', async () => {
    const profileId = `push-${randomUUID()}`;
    const subscription = await push.subscribe(vapidKey);
    const elsewhere = JSON.stringify({ endpoint: 'https://attacker.example/slow', keys: subscription.keys });

    const stored = await request(stack.baseUrl, 'POST', `/profiles?app_id=${stack.dev.app_id}`, {
      key: stack.dev.server_key,
      body: [
        profileRecord(stack, profileId, { first_name: 'Ada', urm_unique_append: { urm_web_push_notification_token: [tokenOf(subscription), elsewhere] } }),
      ],
    });

    expect(stored.status).toBe(400);
    expect(stored.body.errors).toEqual(['[0].urm_unique_append.urm_web_push_notification_token[1] endpoint host is not a push service']);
  });

  test('slow push services cannot hold a send past the function timeout: what is still waiting at the deadline is reported unsent', async () => {
    // A push service that takes every request and never answers.
    const slow: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const profileId = `push-${randomUUID()}`;
      const browser = await push.subscribe(vapidKey);
      const port = (slow.address() as { port: number }).port;
      const stalling = Array.from({ length: 99 }, (_, i) => JSON.stringify({ endpoint: `http://127.0.0.1:${port}/push/${i}`, keys: browser.keys }));
      await applyAndRead(stack, profileId, [
        profileRecord(stack, profileId, { urm_unique_append: { urm_web_push_notification_token: [tokenOf(browser), ...stalling] } }),
      ]);
      const started = Date.now();

      const response = await sendPush({ profile_id: profileId, title: 'Hurry', body: '' });

      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(10_000);
      const { sent, failed, removed, unsent } = response.body;
      expect(sent + failed + removed + unsent).toBe(100);
      expect([sent, removed]).toEqual([1, 0]);
      expect(unsent).toBeGreaterThan(0);
      expect((await push.messages(browser)).length).toBe(1);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  }, 30_000);

  test('a retry with the same notification_id delivers only to the subscriptions the first call did not reach', async () => {
    const profileId = `push-${randomUUID()}`;
    const first = await subscribedBrowser(profileId);
    await tokensOf(profileId);
    const notificationId = randomUUID();
    const notification = { profile_id: profileId, title: 'Once', body: 'only once', notification_id: notificationId };

    const sent = await sendPush(notification);
    const second = await subscribedBrowser(profileId);
    await until(
      () => tokensOf(profileId),
      (tokens) => tokens.length === 2,
      'the second subscription on the profile',
    );
    const retried = await sendPush(notification);

    expect([sent.status, sent.body.notification_id, sent.body.sent]).toEqual([200, notificationId, 1]);
    expect([retried.status, retried.body.notification_id, retried.body.sent, retried.body.skipped]).toEqual([200, notificationId, 1, 1]);
    expect((await push.messages(first)).length).toBe(1);
    expect((await push.messages(second)).map((m) => JSON.parse(m).notification_id)).toEqual([notificationId]);
  });

  test('a notification_id that is not a UUID is refused', async () => {
    const response = await sendPush({ profile_id: 'p', title: 't', body: 'b', notification_id: 'campaign 7' });

    expect(response.status).toBe(400);
    expect(response.body.errors.some((error: string) => error.startsWith('notification_id'))).toBeTruthy();
  });

  test('answers 404 for a profile that does not exist', async () => {
    const response = await sendPush({ profile_id: `nobody-${randomUUID()}`, title: 't', body: 'b' });

    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'profile not found' });
  });

  test('answers 400 naming each invalid field', async () => {
    const response = await sendPush({ profile_id: 'p', body: 'b', url: 'ftp://x', ttl: 10_000_000, urgency: 'asap', image: 'x' });

    expect(response.status).toBe(400);
    expect(response.body.message).toBe('request body is invalid');
    for (const field of ['title', 'url', 'ttl', 'urgency', 'image']) {
      expect(response.body.errors.some((error: string) => error.includes(field))).toBeTruthy();
    }
  });

  test('answers 403 to a server or browser key, and for another application', async () => {
    for (const key of [stack.dev.server_key, stack.dev.browser_key]) {
      expect((await sendPush({ profile_id: 'p', title: 't', body: 'b' }, key)).status).toBe(403);
    }
    expect((await sendPush({ app_id: 'app_other', profile_id: 'p', title: 't', body: 'b' })).status).toBe(403);
  });
});

describe('VAPID keys from the back office', () => {
  test('an application without them answers 404 on GET /push/config and send_push', async () => {
    const office = localBackOffice(localClients(stack.endpoints).document);
    const app = await createApp(office, { name: 'No push yet' });
    const browserKey = (await issueKey(office, app.app_id, commandLineActor, 'browser')).key;
    const commsKey = (await issueKey(office, app.app_id, commandLineActor, 'comms')).key;

    const config = await request(stack.baseUrl, 'GET', `/push/config?app_id=${app.app_id}`, { key: browserKey });
    const send = await request(stack.baseUrl, 'POST', '/api/send_push', {
      key: commsKey,
      body: { app_id: app.app_id, profile_id: 'p', title: 't', body: 'b' },
    });

    expect(config.status).toBe(404);
    expect(config.body).toEqual({ message: 'web push is not configured for this application' });
    expect(send.status).toBe(404);
  });

  test('npm run admin -- push vapid generates them once; --rotate replaces them', async () => {
    const office = localBackOffice(localClients(stack.endpoints).document);
    const app = await createApp(office, { name: 'Push via admin' });
    const admin = (...args: string[]) => adminCli(stack.dataDir, args);
    const browserKey = (await issueKey(office, app.app_id, commandLineActor, 'browser')).key;

    const created = JSON.parse(await admin('push', 'vapid', '--app', app.app_id, '--subject', 'mailto:ops@example.com'));
    await expect(admin('push', 'vapid', '--app', app.app_id)).rejects.toThrow(/has VAPID keys already/);
    const rotated = JSON.parse(await admin('push', 'vapid', '--app', app.app_id, '--rotate'));

    expect(created.vapid_public_key).toMatch(/^B[A-Za-z0-9_-]{86}$/);
    expect(rotated.vapid_public_key).not.toBe(created.vapid_public_key);
    expect(rotated.vapid_subject).toBe('mailto:ops@example.com');
    expect(JSON.stringify(created).includes('private')).toBe(false);
    const config = await request(stack.baseUrl, 'GET', `/push/config?app_id=${app.app_id}`, { key: browserKey });
    expect(config.body).toEqual({ vapid_public_key: rotated.vapid_public_key });
  });

  test('a subject must be mailto: or https:', async () => {
    const office = localBackOffice(localClients(stack.endpoints).document);
    const app = await createApp(office, { name: 'Bad subject' });

    const notHttp = generateVapidKeys(office, app.app_id, commandLineActor, { subject: 'http://example.com' });
    await expect(notHttp).rejects.toThrow(ValidationError);
    await expect(notHttp).rejects.toMatchObject({
      errors: expect.arrayContaining([expect.stringMatching(/subject must be a mailto: address or an https: URL/)]),
    });
    const none = generateVapidKeys(office, app.app_id, commandLineActor);
    await expect(none).rejects.toThrow(ValidationError);
    await expect(none).rejects.toMatchObject({ errors: expect.arrayContaining([expect.stringMatching(/a subject is required/)]) });
  });
});
