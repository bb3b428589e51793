/** `urm-notification.js`: exposes `window.urmNotification` (docs/api.md, "The SDK"). */
import { SDK_VERSION } from '../shared/version';
import { bridgeChat } from './chat-bridge';
import { UrmNotification } from './client';

// Only while the script runs does the page say where it came from.
const script = document.currentScript as HTMLScriptElement | null;
const client = new UrmNotification({
  notifications: typeof Notification === 'undefined' ? undefined : Notification,
  serviceWorker: 'serviceWorker' in navigator ? navigator.serviceWorker : undefined,
  pushSupported: 'PushManager' in window,
  secureContext: window.isSecureContext,
  storage: localStorage,
  fetch: (input, init) => fetch(input, init),
  newId: () => crypto.randomUUID(),
  now: () => new Date(),
  defaultApiUrl: script?.src ? new URL(script.src).origin : undefined,
});

const api = {
  version: SDK_VERSION,
  initNotification: (settings: unknown) => client.initNotification(settings),
  enablePushNotification: () => client.enablePushNotification(),
  disablePushNotification: () => client.disablePushNotification(),
  disablePushNotificationPermanent: () => client.disablePushNotificationPermanent(),
  disablePushNotificationPermanentAllDevice: () => client.disablePushNotificationPermanentAllDevice(),
  setPushNotificationToken: (token: unknown) => client.setPushNotificationToken(token),
  setProfileId: (id: unknown, hash?: unknown) => client.setProfileId(id, hash),
};

bridgeChat(window, (id, hash) => {
  client.setProfileId(id, hash).catch((error: unknown) => console.error(error));
});

(window as unknown as { urmNotification: typeof api }).urmNotification = api;
