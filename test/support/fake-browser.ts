/** A browser for the page script's tests: permission, service worker container, push manager, storage and the API, all in memory. */
import type { BrowserEnv, RegistrationLike, SubscriptionLike } from '../../web-sdk/src/page/client';
import type { SubscriptionJson } from '../../web-sdk/src/shared/subscription';

export const VAPID_KEY = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';

export class FakeSubscription implements SubscriptionLike {
  unsubscribed = false;
  constructor(
    private readonly json: SubscriptionJson,
    readonly options: { applicationServerKey: ArrayBuffer | null },
  ) {}
  toJSON() {
    return { ...this.json, expirationTime: null };
  }
  async unsubscribe() {
    this.unsubscribed = true;
    return true;
  }
}

export function subscriptionJson(name: string): SubscriptionJson {
  return { endpoint: `https://push.example.com/${name}`, keys: { p256dh: `p256dh-${name}`, auth: `auth-${name}` } };
}

export interface FakeBrowserOptions {
  permission: NotificationPermission;
  /** What the prompt answers when permission is default. */
  answer?: NotificationPermission;
  /** The browser's subscription before the test. */
  existing?: FakeSubscription;
  registered?: boolean;
  serviceWorker?: boolean;
  secureContext?: boolean;
  storage?: Map<string, string>;
}

export function fakeBrowser(options: FakeBrowserOptions) {
  const requests: { method: string; url: string; body?: any; headers: Record<string, string> }[] = [];
  const storage = options.storage ?? new Map<string, string>();
  const state = {
    permission: options.permission,
    prompts: 0,
    registeredUrl: undefined as string | undefined,
    registered: options.registered ?? false,
    subscription: options.existing as FakeSubscription | undefined,
    subscribedWith: undefined as Uint8Array | undefined,
    madeSubscriptions: 0,
  };
  const registration: RegistrationLike = {
    pushManager: {
      getSubscription: async () => (state.subscription && !state.subscription.unsubscribed ? state.subscription : null),
      subscribe: async ({ applicationServerKey }) => {
        state.subscribedWith = applicationServerKey;
        state.madeSubscriptions++;
        state.subscription = new FakeSubscription(subscriptionJson(`new-${state.madeSubscriptions}`), { applicationServerKey: applicationServerKey.buffer });
        return state.subscription;
      },
    },
    unregister: async () => {
      state.registered = false;
      return true;
    },
  };
  let ids = 0;
  const env: BrowserEnv = {
    notifications: {
      get permission() {
        return state.permission;
      },
      requestPermission: async () => {
        state.prompts++;
        state.permission = options.answer ?? 'default';
        return state.permission;
      },
    },
    serviceWorker:
      options.serviceWorker === false
        ? undefined
        : {
            register: async (url) => {
              state.registeredUrl = url;
              state.registered = true;
              return registration;
            },
            get ready() {
              return Promise.resolve(registration);
            },
            getRegistration: async () => (state.registered ? registration : undefined),
          },
    pushSupported: options.serviceWorker !== false,
    secureContext: options.secureContext ?? true,
    storage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
      removeItem: (key) => void storage.delete(key),
    },
    fetch: (async (url: string, init: RequestInit) => {
      requests.push({
        method: init.method ?? 'GET',
        url,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
        headers: init.headers as Record<string, string>,
      });
      const path = new URL(url).pathname;
      if (path === '/push/config') return Response.json({ vapid_public_key: VAPID_KEY });
      return Response.json({ EncryptionType: 'NONE', FailedRecordCount: 0, Records: [] });
    }) as unknown as typeof fetch,
    newId: () => `uuid-${++ids}`,
    now: () => new Date('2026-11-21T10:00:00Z'),
    defaultApiUrl: 'https://api.example.com',
  };
  const profileRecords = () => requests.filter((r) => r.method === 'POST').flatMap((r) => r.body as Record<string, any>[]);
  return { env, state, requests, storage, profileRecords };
}
