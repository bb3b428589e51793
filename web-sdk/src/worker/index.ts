/// <reference lib="webworker" />
/**
 * `urmSDKWorker.js`: shows the notifications of push messages, opens or
 * focuses their page on a click, and reports received, clicked and dismissed
 * to POST /events (docs/api.md, "The service worker").
 */
import { lifecycleEvent, type LifecycleKind, type PushPayload } from '../shared/records';
import { workerConfig } from './config';
import { idbQueue } from './idb-queue';
import { clickTarget, notificationOptions, parsePayload, windowFor } from './notifications';
import { enqueue, flush, sendReports } from './reports';

declare const self: ServiceWorkerGlobalScope;

const config = workerConfig(self.location.search);
const queue = idbQueue(indexedDB);

function sendQueued(): Promise<unknown> {
  if (!config) return Promise.resolve();
  return flush(queue, (records) => sendReports(config, records)).catch((error: unknown) => console.error(error));
}

async function report(kind: LifecycleKind, payload: PushPayload | undefined): Promise<void> {
  if (!payload) return;
  if (!config) {
    console.error('urmNotification: the worker was registered without apiUrl, appId and apiKey; nothing is reported');
    return;
  }
  await enqueue(queue, [lifecycleEvent(kind, config.appId, payload, new Date())], Date.now());
  await sendQueued();
}

async function open(payload: PushPayload | undefined): Promise<void> {
  const target = clickTarget(payload, self.registration.scope);
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const existing = windowFor(windows, target);
  if (existing) await existing.focus();
  else await self.clients.openWindow(target);
}

/** The work starts before waitUntil is called, so it runs even where waitUntil refuses (a script-made event). */
function keepAlive(event: ExtendableEvent, work: Promise<unknown>): void {
  event.waitUntil(work);
}

// A new version takes over at once: reports go out with the newest code.
self.addEventListener('install', () => void self.skipWaiting());

self.addEventListener('activate', (event) => {
  keepAlive(event, Promise.all([self.clients.claim(), sendQueued()]));
});

self.addEventListener('push', (event) => {
  const payload = parsePayload(event.data?.text());
  if (!payload) return;
  keepAlive(event, Promise.all([self.registration.showNotification(payload.title, notificationOptions(payload)), report('received', payload)]));
});

self.addEventListener('notificationclick', (event) => {
  const payload = parsePayload(JSON.stringify(event.notification.data ?? null));
  event.notification.close();
  keepAlive(event, Promise.allSettled([open(payload), report('clicked', payload)]));
});

self.addEventListener('notificationclose', (event) => {
  keepAlive(event, report('dismissed', parsePayload(JSON.stringify(event.notification.data ?? null))));
});
