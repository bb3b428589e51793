/**
 * The web push SDK in a real headless Chromium (Debian's, driven by
 * playwright-core) against the local stack, as TOOLCHAIN.md says works
 * offline:
 *
 * - The site is its own server on http://localhost:SITE_PORT: it serves its
 *   page and, at its root, urmSDKWorker.js, as an integrator does. The page
 *   loads the SDK from the local stack (http://127.0.0.1:PORT/js/…, the CDN's
 *   address locally), which is also the API: every SDK and worker call
 *   crosses origins and goes through CORS.
 * - Permissions are set per browser context (granted, default with the
 *   prompt approved, denied).
 * - `pushManager.subscribe` needs a push service, which Chromium cannot reach
 *   offline: the test hands the page a real subscription minted by
 *   web-push-testing, by replacing PushManager's subscribe/getSubscription
 *   before the page runs. Everything else is Chromium's own: the service
 *   worker, notifications, IndexedDB, fetch.
 * - A push goes from send_push through web-push-testing (encrypted, decrypted
 *   there) and is delivered to the worker with the CDP call
 *   ServiceWorker.deliverPushMessage.
 * - Headless Chromium shows no notification a person could click: a click or a
 *   close is the worker's own NotificationEvent, dispatched on the real
 *   notification from getNotifications().
 */
import { commandLineActor } from '../../functions/domain/audit';
import { browserEventInsertId } from '../../functions/domain/browser-access';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, BrowserContext, Page, Worker } from 'playwright-core';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { generateVapidKeys } from '../../functions/back-office/web-push';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { launchChromium } from '../support/chromium';
import { proofOf } from '../support/identity';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { freePort } from '../support/ports';
import { until } from '../support/profiles';
import { distDir, WORKER_SCRIPT } from '../../web-sdk/build';
import { startPushService, tokenOf, type MintedSubscription, type PushService } from '../support/push-service';

interface E2eApp {
  app_id: string;
  browser_key: string;
  server_key: string;
  comms_key: string;
  vapid_public_key: string;
  /** Verification is on, as for every new application: the test plays the site's server, which proves profile ids. */
  identity_secret: string;
}

let stack: TestStack;
let push: PushService;
let browser: Browser;
let site: Server;
let app: E2eApp;
/** Where the site's pages are, and where the SDK and the API are: two origins of this machine. */
let siteOrigin: string;
let stackOrigin: string;

/** The integrator's site: a page that loads the SDK from the stack, and the worker file at its root. */
function startSite(port: number, sdkOrigin: string): Promise<Server> {
  const page = `<!doctype html><title>site</title><script src="${sdkOrigin}/js/urm-notification.js?date=20261121"></script>`;
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path === '/') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
    } else if (path === `/${WORKER_SCRIPT}`) {
      response.writeHead(200, { 'Content-Type': 'application/javascript' }).end(readFileSync(join(distDir, WORKER_SCRIPT)));
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  stack = await testStack();
  stackOrigin = new URL(stack.baseUrl).origin;
  const sitePort = await freePort();
  siteOrigin = `http://localhost:${sitePort}`;
  site = await startSite(sitePort, stackOrigin);
  // An application of its own: its site origin is the page's, and no other test touches it.
  const office = localBackOffice(localClients(stack.endpoints).document);
  const created = await createApp(office, { name: 'Web push e2e', siteOrigins: [siteOrigin] });
  const key = async (scope: 'browser' | 'server' | 'comms') => (await issueKey(office, created.app_id, commandLineActor, scope)).key;
  const vapid = await generateVapidKeys(office, created.app_id, commandLineActor, { subject: 'mailto:e2e@example.com' });
  app = {
    app_id: created.app_id,
    browser_key: await key('browser'),
    server_key: await key('server'),
    comms_key: await key('comms'),
    vapid_public_key: vapid.publicKey,
    identity_secret: created.identity_secret,
  };
  push = await startPushService();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await push?.stop();
  site?.closeAllConnections();
  site?.close();
});

/**
 * Each test's context closes after it, passed or not: service worker
 * registrations of two open contexts share ids, and a push delivered by id
 * must reach the one of the test.
 */
const openContexts: BrowserContext[] = [];
afterEach(async () => {
  for (const context of openContexts.splice(0)) await context.close();
});

/**
 * What the test changes in the page before it runs: PushManager hands out the
 * minted subscription (and records the key it was asked for), and the
 * permission prompt is approved by the person (the test grants the
 * permission; Chromium then answers granted).
 */
const pageHooks = `function (minted) {
  const test = { subscribedWith: '', unsubscribed: false, prompted: false };
  window.urmTest = test;
  let current = null;
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    test.subscribedWith = btoa(String.fromCharCode(...key)).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
    current = {
      endpoint: minted.endpoint,
      expirationTime: null,
      options: { applicationServerKey: key.buffer, userVisibleOnly: true },
      toJSON: function () { return { endpoint: minted.endpoint, expirationTime: null, keys: minted.keys }; },
      unsubscribe: async function () { current = null; test.unsubscribed = true; return true; },
    };
    return current;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
  const requestPermission = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = async function () {
    test.prompted = true;
    await window.urmApprove();
    return requestPermission();
  };
}`;

/**
 * A browser context with the site's page: the page only loads the SDK (the
 * test calls it), and PushManager hands out `subscription` instead of asking
 * a push service.
 */
async function openSite(subscription: MintedSubscription, permission: 'granted' | 'default' | 'denied') {
  const context = await browser.newContext();
  openContexts.push(context);
  // Plain JavaScript, not a function of this file: tsx would add helpers the page does not have.
  await context.addInitScript({ content: `(${pageHooks})(${JSON.stringify(subscription)});` });
  await context.exposeFunction('urmApprove', () => context.grantPermissions(['notifications'], { origin: siteOrigin }));
  const page = await context.newPage();
  if (permission === 'granted') await context.grantPermissions(['notifications'], { origin: siteOrigin });
  if (permission === 'denied') {
    // Playwright grants but never denies: Chromium's own call does, for this context only.
    const cdp = await context.newCDPSession(page);
    const { targetInfo } = await cdp.send('Target.getTargetInfo');
    await cdp.send('Browser.setPermission', {
      permission: { name: 'notifications' },
      setting: 'denied',
      origin: siteOrigin,
      browserContextId: targetInfo.browserContextId,
    });
  }
  await page.goto(`${siteOrigin}/`);
  return { context, page };
}

/** The page of a site whose server signed the player in: it gives the SDK the profile id and its proof (unless `proved` is false). */
const initNotification = (page: Page, profileId?: string, proved = true) =>
  page.evaluate(
    (settings) => (window as any).urmNotification.initNotification(settings) as Promise<{ permission: string; subscribed: boolean; profileId?: string }>,
    // No apiUrl: it defaults to where the script came from, the stack.
    {
      appId: app.app_id,
      apiKey: app.browser_key,
      ...(profileId ? { profileId, ...(proved ? { profileIdHash: proofOf(app.identity_secret, profileId) } : {}) } : {}),
    },
  );

async function profileAttributes(profileId: string): Promise<Record<string, any> | undefined> {
  const response = await request(stack.baseUrl, 'GET', `/profiles/${encodeURIComponent(profileId)}?app_id=${app.app_id}`, { key: app.server_key });
  return response.status === 200 ? response.body.attributes : undefined;
}

async function timeline(profileId: string): Promise<{ event: string; urm_insert_id: string; attributes: Record<string, unknown> }[]> {
  const response = await request(stack.baseUrl, 'GET', `/profiles/${encodeURIComponent(profileId)}/events?app_id=${app.app_id}&limit=100`, {
    key: app.server_key,
  });
  return response.status === 200 ? response.body.events : [];
}

const tokensOn = (profileId: string, expected: string[]) =>
  until(
    () => profileAttributes(profileId),
    (attributes) => JSON.stringify(attributes?.urm_web_push_notification_token ?? null) === JSON.stringify(expected),
    `the tokens of ${profileId} to be ${JSON.stringify(expected)}`,
  );

const eventOn = (profileId: string, event: string, notificationId: string) =>
  until(
    () => timeline(profileId),
    (events) => events.some((entry) => entry.event === event && entry.attributes.notification_id === notificationId),
    `${event} of ${notificationId} on the timeline of ${profileId}`,
  );

/** send_push through the push service: answers the notification id and the payload as the push service decrypted it. */
async function sendThroughPushService(profileId: string, subscription: MintedSubscription, title: string) {
  const before = (await push.messages(subscription)).length;
  const sent = await request(stack.baseUrl, 'POST', '/api/send_push', {
    key: app.comms_key,
    body: { app_id: app.app_id, profile_id: profileId, title, body: 'from the e2e test', url: `${siteOrigin}/promotions` },
  });
  expect(sent.status).toBe(200);
  expect(sent.body.sent).toBe(1);
  const messages = await push.messages(subscription);
  expect(messages.length).toBe(before + 1);
  return { notificationId: sent.body.notification_id as string, payload: messages.at(-1)! };
}

/**
 * Delivers a push message to the site's service worker, as the browser's push
 * service would, until its notification shows. Chromium's DevTools delivery
 * now and then loses a message (the worker being attached to); a push service
 * delivers at least once too, and the worker shows a notification id once and
 * reports it once, so delivering again is what a real retry would do.
 */
async function deliverToWorker(context: BrowserContext, page: Page, data: string): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
  await cdp.send('ServiceWorker.enable');
  const registration = await until(
    async () => registrations.find((r) => r.scopeURL === `${siteOrigin}/` && !r.isDeleted),
    (found) => found !== undefined,
    'the service worker registration',
  );
  const tag = (JSON.parse(data) as { notification_id: string }).notification_id;
  for (let attempt = 1; ; attempt++) {
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: siteOrigin, registrationId: registration!.registrationId, data });
    try {
      await until(
        () => shownNotifications(page),
        (shown) => shown.some((n) => n.tag === tag),
        `notification ${tag}`,
        3000,
      );
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  await cdp.detach();
}

const shownNotifications = (page: Page) =>
  page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag })));

function siteWorker(context: BrowserContext): Worker {
  const worker = context.serviceWorkers().find((w) => w.url().startsWith(`${siteOrigin}/urmSDKWorker.js?`));
  expect(worker).toBeDefined();
  return worker!;
}

/** What the browser does when the person clicks or closes the notification: the worker's own event on it. */
const dispatchOnNotification = (worker: Worker, type: 'notificationclick' | 'notificationclose', tag: string) =>
  worker.evaluate(
    async ({ type, tag }) => {
      const scope = self as unknown as ServiceWorkerGlobalScope;
      const [notification] = await scope.registration.getNotifications({ tag });
      scope.dispatchEvent(new NotificationEvent(type, { notification }));
    },
    { type, tag },
  );

describe('initNotification in Chromium, by permission state', () => {
  test('granted: the worker is registered, the browser subscribed with the VAPID key, and the token stored on the profile', async () => {
    const profileId = `e2e-${randomUUID()}`;
    const subscription = await push.subscribe(app.vapid_public_key);
    const { page } = await openSite(subscription, 'granted');

    const result = await initNotification(page, profileId);

    expect(result).toEqual({ permission: 'granted', subscribed: true, profileId });
    expect(await page.evaluate(() => (window as any).urmTest.subscribedWith)).toBe(app.vapid_public_key);
    expect(await page.evaluate(() => (window as any).urmTest.prompted)).toBe(false);
    const registration = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
    expect(registration).toBe(`${siteOrigin}/urmSDKWorker.js?apiUrl=${encodeURIComponent(stackOrigin)}&appId=${app.app_id}&apiKey=${app.browser_key}`);
    const attributes = await tokensOn(profileId, [tokenOf(subscription)]);
    expect(attributes?.urm_receives_notifications).toBe(true);
  });

  test('default: the prompt is shown, and on approval the browser is subscribed', async () => {
    const profileId = `e2e-${randomUUID()}`;
    const subscription = await push.subscribe(app.vapid_public_key);
    const { page } = await openSite(subscription, 'default');
    expect(await page.evaluate(() => Notification.permission)).toBe('default');

    const result = await initNotification(page, profileId);

    expect(await page.evaluate(() => (window as any).urmTest.prompted)).toBe(true);
    expect(result).toEqual({ permission: 'granted', subscribed: true, profileId });
    await tokensOn(profileId, [tokenOf(subscription)]);
  });

  test('denied: no prompt, no worker, no subscription, nothing stored, and a clear result', async () => {
    const profileId = `e2e-${randomUUID()}`;
    const subscription = await push.subscribe(app.vapid_public_key);
    const { page } = await openSite(subscription, 'denied');

    const result = await initNotification(page, profileId);

    expect(result).toEqual({ permission: 'denied', subscribed: false });
    expect(await page.evaluate(() => (window as any).urmTest.prompted)).toBe(false);
    expect(await page.evaluate(() => (window as any).urmTest.subscribedWith)).toBe('');
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
    // The consumers apply within a second: after two, a stored record would show.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await profileAttributes(profileId)).toBe(undefined);
  });
});

describe('a visitor in Chromium', () => {
  test('subscribed anonymously keeps receiving as the known profile after urmChat.setProfileId (merge)', async () => {
    const subscription = await push.subscribe(app.vapid_public_key);
    const { page } = await openSite(subscription, 'granted');
    const anonymous = await initNotification(page);
    expect(anonymous.profileId ?? '').toMatch(/^urm-anon-[0-9a-f-]{36}$/);
    await tokensOn(anonymous.profileId!, [tokenOf(subscription)]);
    const known = `e2e-known-${randomUUID()}`;

    await page.evaluate(([id, hash]) => (window as any).urmChat.setProfileId(id, hash), [known, proofOf(app.identity_secret, known)]);

    await tokensOn(known, [tokenOf(subscription)]);
  });

  test('given a known profile id without its proof, initNotification rejects with the 403 and stores nothing', async () => {
    const profileId = `e2e-${randomUUID()}`;
    const subscription = await push.subscribe(app.vapid_public_key);
    const { page } = await openSite(subscription, 'granted');

    const outcome = await initNotification(page, profileId, false).then(
      () => 'resolved',
      (error: Error) => error.message,
    );

    expect(outcome).toMatch(/POST \/profiles answered 403: Forbidden/);
    expect(await profileAttributes(profileId)).toBe(undefined);
  });
});

describe('a push in Chromium', () => {
  test('sent with send_push reaches the worker, shows a notification, and urm_push_received, urm_push_clicked and urm_push_dismissed reach the timeline', async () => {
    const profileId = `e2e-${randomUUID()}`;
    const subscription = await push.subscribe(app.vapid_public_key);
    const { context, page } = await openSite(subscription, 'granted');
    await initNotification(page, profileId);
    await tokensOn(profileId, [tokenOf(subscription)]);

    const first = await sendThroughPushService(profileId, subscription, 'Your free spins');
    await deliverToWorker(context, page, first.payload);

    const shown = await until(
      () => shownNotifications(page),
      (list) => list.length === 1,
      'the notification',
    );
    expect(shown).toEqual([{ title: 'Your free spins', body: 'from the e2e test', tag: first.notificationId }]);
    const received = await eventOn(profileId, 'urm_push_received', first.notificationId);
    const entry = received.find((e) => e.event === 'urm_push_received')!;
    // The worker sends `<notification id>:received`; the service stores a browser-key event under its own id.
    expect(entry.urm_insert_id).toBe(browserEventInsertId({ event: 'urm_push_received', notification_id: first.notificationId }));
    expect(entry.attributes).toEqual({ notification_id: first.notificationId, url: `${siteOrigin}/promotions` });

    await dispatchOnNotification(siteWorker(context), 'notificationclick', first.notificationId);
    await eventOn(profileId, 'urm_push_clicked', first.notificationId);
    await until(
      () => shownNotifications(page),
      (list) => list.length === 0,
      'the clicked notification to close',
    );

    const second = await sendThroughPushService(profileId, subscription, 'Last chance');
    await deliverToWorker(context, page, second.payload);
    await until(
      () => shownNotifications(page),
      (list) => list.length === 1,
      'the second notification',
    );
    await dispatchOnNotification(siteWorker(context), 'notificationclose', second.notificationId);
    await eventOn(profileId, 'urm_push_dismissed', second.notificationId);
  });
});

describe('a report in Chromium', () => {
  test('that fails stays in the worker queue (IndexedDB) and reaches the timeline with the next report', async () => {
    const profileId = `e2e-${randomUUID()}`;
    const subscription = await push.subscribe(app.vapid_public_key);
    const { context, page } = await openSite(subscription, 'granted');
    await initNotification(page, profileId);
    await tokensOn(profileId, [tokenOf(subscription)]);
    // The service is unreachable for the worker's first report.
    let refused = 0;
    await context.route(`${stackOrigin}/events?**`, (route) => {
      refused++;
      return route.abort('connectionrefused');
    });
    const first = await sendThroughPushService(profileId, subscription, 'Offline for a moment');
    await deliverToWorker(context, page, first.payload);
    await until(
      async () => refused,
      (count) => count > 0,
      'the first report to fail',
    );
    // send_push's own event reaches the timeline through the stream; the refused report must not be beside it.
    await eventOn(profileId, 'urm_push_sent', first.notificationId);
    expect((await timeline(profileId)).map((entry) => entry.event)).toEqual(['urm_push_sent']);

    await context.unrouteAll();
    const second = await sendThroughPushService(profileId, subscription, 'Back online');
    await deliverToWorker(context, page, second.payload);

    await eventOn(profileId, 'urm_push_received', second.notificationId);
    await eventOn(profileId, 'urm_push_received', first.notificationId);
  });
});

describe('the permanent disables in Chromium', () => {
  test("disablePushNotificationPermanent unsubscribes, unregisters the worker and removes this device's token only", async () => {
    const profileId = `e2e-${randomUUID()}`;
    const otherDevice = JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/other-device', keys: { p256dh: 'BPk', auth: 'au' } });
    await request(stack.baseUrl, 'POST', '/profiles', {
      key: app.server_key,
      body: [{ app_id: app.app_id, profile_id: profileId, urm_date_time: new Date().toISOString(), urm_web_push_notification_token: [otherDevice] }],
    });
    const subscription = await push.subscribe(app.vapid_public_key);
    const { page } = await openSite(subscription, 'granted');
    await initNotification(page, profileId);
    await tokensOn(profileId, [otherDevice, tokenOf(subscription)]);

    await page.evaluate(() => (window as any).urmNotification.disablePushNotificationPermanent());

    await tokensOn(profileId, [otherDevice]);
    expect(await page.evaluate(() => (window as any).urmTest.unsubscribed)).toBe(true);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
    const again = await page.evaluate(() =>
      (window as any).urmNotification.disablePushNotificationPermanent().then(
        () => 'resolved',
        (error: Error) => error.message,
      ),
    );
    expect(again).toMatch(/no service worker is registered/);
  });

  test('disablePushNotificationPermanentAllDevice empties the web, iOS and Android tokens of the profile', async () => {
    const profileId = `e2e-${randomUUID()}`;
    await request(stack.baseUrl, 'POST', '/profiles', {
      key: app.server_key,
      body: [
        {
          app_id: app.app_id,
          profile_id: profileId,
          urm_date_time: new Date().toISOString(),
          urm_set: { urm_ios_push_notification_token: ['apns-1'], urm_android_push_notification_token: ['fcm-1'] },
        },
      ],
    });
    const subscription = await push.subscribe(app.vapid_public_key);
    const { page } = await openSite(subscription, 'granted');
    await initNotification(page, profileId);
    await tokensOn(profileId, [tokenOf(subscription)]);

    await page.evaluate(() => (window as any).urmNotification.disablePushNotificationPermanentAllDevice());

    const attributes = await tokensOn(profileId, []);
    expect(attributes?.urm_ios_push_notification_token).toEqual([]);
    expect(attributes?.urm_android_push_notification_token).toEqual([]);
  });
});
