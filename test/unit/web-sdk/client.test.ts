import { describe, expect, test } from '@jest/globals';
import { UrmNotification, WORKER_PATH } from '../../../web-sdk/src/page/client';
import { base64UrlToBytes, tokenOf } from '../../../web-sdk/src/shared/subscription';
import { fakeBrowser, FakeSubscription, subscriptionJson, VAPID_KEY } from '../../support/fake-browser';
import { receiptApi, type ReceiptApi } from './receipts';

const settings = { appId: 'app_1', apiKey: 'urm_browser_key', profileId: 'player-42' };
const TOKENS = 'urm_web_push_notification_token';
const vapidKey = base64UrlToBytes(VAPID_KEY);

describe('initNotification, by permission state', () => {
  test('granted: registers the worker at the site root, subscribes with the VAPID key and stores the token on the profile', async () => {
    const browser = fakeBrowser({ permission: 'granted' });

    const result = await new UrmNotification(browser.env).initNotification(settings);

    expect(result).toEqual({ permission: 'granted', subscribed: true, profileId: 'player-42' });
    expect(browser.state.prompts).toBe(0);
    expect(browser.state.registeredUrl).toBe(`${WORKER_PATH}?apiUrl=https%3A%2F%2Fapi.example.com&appId=app_1&apiKey=urm_browser_key`);
    expect(browser.state.subscribedWith).toEqual(vapidKey);
    expect(browser.profileRecords()).toEqual([
      {
        app_id: 'app_1',
        profile_id: 'player-42',
        urm_date_time: '2026-11-21T10:00:00.000Z',
        urm_insert_id: 'uuid-1',
        urm_set_if_null: { urm_receives_notifications: true },
        urm_unique_append: { [TOKENS]: [tokenOf(subscriptionJson('new-1'))] },
      },
    ]);
  });

  test('calls the API with the browser key and the application in the query string', async () => {
    const browser = fakeBrowser({ permission: 'granted' });

    await new UrmNotification(browser.env).initNotification(settings);

    expect(browser.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET https://api.example.com/push/config?app_id=app_1',
      'POST https://api.example.com/profiles?app_id=app_1',
    ]);
    expect(browser.requests[1].headers['x-api-key']).toBe('urm_browser_key');
    expect(browser.requests[1].headers['Content-Type']).toBe('application/json');
  });

  test('default: shows the prompt, and on approval subscribes', async () => {
    const browser = fakeBrowser({ permission: 'default', answer: 'granted' });

    const result = await new UrmNotification(browser.env).initNotification(settings);

    expect(browser.state.prompts).toBe(1);
    expect(result).toEqual({ permission: 'granted', subscribed: true, profileId: 'player-42' });
    expect(browser.profileRecords().length).toBe(1);
  });

  test('default, prompt dismissed: no subscription and nothing stored', async () => {
    const browser = fakeBrowser({ permission: 'default', answer: 'default' });

    const result = await new UrmNotification(browser.env).initNotification(settings);

    expect(result).toEqual({ permission: 'default', subscribed: false });
    expect(browser.requests.length).toBe(0);
    expect(browser.state.registeredUrl).toBe(undefined);
  });

  test('denied: no prompt, no worker, no subscription, nothing stored, and a clear result', async () => {
    const browser = fakeBrowser({ permission: 'denied' });

    const result = await new UrmNotification(browser.env).initNotification(settings);

    expect(result).toEqual({ permission: 'denied', subscribed: false });
    expect(browser.state.prompts).toBe(0);
    expect(browser.state.registeredUrl).toBe(undefined);
    expect(browser.requests.length).toBe(0);
    expect(browser.storage.size).toBe(0);
  });
});

describe('initNotification rejects clearly', () => {
  const cases: [string, unknown, RegExp][] = [
    ['without settings', undefined, /settings object/],
    ['without appId', { apiKey: 'k' }, /settings\.appId is required/],
    ['without apiKey', { appId: 'a' }, /settings\.apiKey is required/],
    ['with an empty appId', { appId: '', apiKey: 'k' }, /settings\.appId must be a string/],
    ['with an apiUrl that is not http(s)', { appId: 'a', apiKey: 'k', apiUrl: 'javascript:alert(1)' }, /apiUrl must be an http\(s\) URL/],
  ];
  for (const [name, input, message] of cases) {
    test(name, async () => {
      await expect(new UrmNotification(fakeBrowser({ permission: 'granted' }).env).initNotification(input)).rejects.toThrow(message);
    });
  }

  test('without service worker support', async () => {
    await expect(new UrmNotification(fakeBrowser({ permission: 'granted', serviceWorker: false }).env).initNotification(settings)).rejects.toThrow(
      /no service workers/,
    );
  });

  test('on an insecure origin', async () => {
    await expect(new UrmNotification(fakeBrowser({ permission: 'granted', secureContext: false }).env).initNotification(settings)).rejects.toThrow(
      /secure origin/,
    );
  });
});

describe('the browser subscription', () => {
  test('made with the same key is kept, and its token stored again', async () => {
    const existing = new FakeSubscription(subscriptionJson('old'), { applicationServerKey: vapidKey.buffer });
    const browser = fakeBrowser({ permission: 'granted', existing });

    await new UrmNotification(browser.env).initNotification(settings);

    expect(browser.state.madeSubscriptions).toBe(0);
    expect(browser.profileRecords()[0].urm_unique_append).toEqual({ [TOKENS]: [tokenOf(subscriptionJson('old'))] });
  });

  test('made with another key (rotated VAPID keys) is replaced by a new one', async () => {
    const existing = new FakeSubscription(subscriptionJson('old'), { applicationServerKey: new Uint8Array(65).fill(4).buffer });
    const browser = fakeBrowser({ permission: 'granted', existing });

    await new UrmNotification(browser.env).initNotification(settings);

    expect(existing.unsubscribed).toBe(true);
    expect(browser.state.madeSubscriptions).toBe(1);
  });

  test('that changed since the last visit replaces the old token on the profile', async () => {
    const storage = new Map<string, string>();
    const first = fakeBrowser({ permission: 'granted', storage });
    await new UrmNotification(first.env).initNotification(settings);
    const changed = new FakeSubscription(subscriptionJson('renewed'), { applicationServerKey: vapidKey.buffer });
    const second = fakeBrowser({ permission: 'granted', storage, existing: changed });

    await new UrmNotification(second.env).initNotification(settings);

    const [remove, append] = second.profileRecords();
    expect(remove.urm_remove).toEqual({ [TOKENS]: [tokenOf(subscriptionJson('new-1'))] });
    expect(append.urm_unique_append).toEqual({ [TOKENS]: [tokenOf(subscriptionJson('renewed'))] });
  });
});

describe('anonymous visitors', () => {
  test('without a profileId the token goes on an anonymous profile kept in the browser', async () => {
    const browser = fakeBrowser({ permission: 'granted' });

    const result = await new UrmNotification(browser.env).initNotification({ appId: 'app_1', apiKey: 'k' });

    expect(result.profileId).toBe('urm-anon-uuid-1');
    expect(browser.profileRecords()[0].profile_id).toBe('urm-anon-uuid-1');
    expect(browser.storage.get('urm:app_1:anon')).toBe('urm-anon-uuid-1');
  });

  test('setProfileId merges the anonymous profile into the known one, and the visitor goes on as it', async () => {
    const browser = fakeBrowser({ permission: 'granted' });
    const client = new UrmNotification(browser.env);
    await client.initNotification({ appId: 'app_1', apiKey: 'k' });

    await client.setProfileId('player-42');
    await client.disablePushNotification();

    const [subscribed, merge, pause] = browser.profileRecords();
    // The device token travels with the merge, in case the visitor's own record is not applied yet.
    expect(merge).toEqual({
      app_id: 'app_1',
      profile_id: 'player-42',
      urm_date_time: '2026-11-21T10:00:00.000Z',
      urm_insert_id: 'uuid-3',
      urm_merge: ['urm-anon-uuid-1'],
      urm_unique_append: subscribed.urm_unique_append,
    });
    expect(pause.profile_id).toBe('player-42');
    expect(browser.storage.get('urm:app_1:anon')).toBe(undefined);
  });

  test('a profileId given to initNotification merges the anonymous profile of an earlier visit', async () => {
    const storage = new Map<string, string>();
    await new UrmNotification(fakeBrowser({ permission: 'granted', storage }).env).initNotification({ appId: 'app_1', apiKey: 'k' });
    const later = fakeBrowser({ permission: 'granted', storage });

    await new UrmNotification(later.env).initNotification(settings);

    expect(later.profileRecords()[0].urm_merge).toEqual(['urm-anon-uuid-1']);
    expect(later.profileRecords()[1].profile_id).toBe('player-42');
  });

  test('setProfileId before initNotification is applied by it', async () => {
    const browser = fakeBrowser({ permission: 'granted' });
    const client = new UrmNotification(browser.env);

    await client.setProfileId('player-7');
    const result = await client.initNotification({ appId: 'app_1', apiKey: 'k' });

    expect(result.profileId).toBe('player-7');
  });

  test("switching between known profiles moves this browser's token", async () => {
    const browser = fakeBrowser({ permission: 'granted' });
    const client = new UrmNotification(browser.env);
    await client.initNotification(settings);
    const token = tokenOf(subscriptionJson('new-1'));

    await client.setProfileId('player-43');

    const [, leave, join] = browser.profileRecords();
    expect([leave.profile_id, leave.urm_remove]).toEqual(['player-42', { [TOKENS]: [token] }]);
    expect([join.profile_id, join.urm_unique_append]).toEqual(['player-43', { [TOKENS]: [token] }]);
  });
});

describe('identity proofs', () => {
  const proof = (n: number) => n.toString(16).padStart(2, '0').repeat(32);
  const proved = { ...settings, profileIdHash: proof(42) };

  test("initNotification's profileIdHash goes with the known profile's records, and later pages of the browser still send it", async () => {
    const storage = new Map<string, string>();
    await new UrmNotification(fakeBrowser({ permission: 'granted', storage }).env).initNotification(proved);
    const later = fakeBrowser({ permission: 'granted', storage });
    const client = new UrmNotification(later.env);

    await client.initNotification({ appId: 'app_1', apiKey: 'urm_browser_key' });
    await client.disablePushNotificationPermanentAllDevice();

    expect(later.profileRecords().map((record) => [record.profile_id, record.urm_profile_id_hash])).toEqual([
      ['player-42', proof(42)],
      ['player-42', proof(42)],
    ]);
  });

  test("an anonymous visitor's records carry no proof", async () => {
    const browser = fakeBrowser({ permission: 'granted' });

    await new UrmNotification(browser.env).initNotification({ appId: 'app_1', apiKey: 'k' });

    expect(browser.profileRecords()[0]).not.toHaveProperty('urm_profile_id_hash');
  });

  test('setProfileId(id, hash) proves the merge into the known profile, and a switch proves each profile with its own proof', async () => {
    const browser = fakeBrowser({ permission: 'granted' });
    const client = new UrmNotification(browser.env);
    await client.initNotification({ appId: 'app_1', apiKey: 'k' });

    await client.setProfileId('player-42', proof(42));
    await client.setProfileId('player-43', proof(43));

    const [, merge, leave, join] = browser.profileRecords();
    expect([merge.profile_id, merge.urm_profile_id_hash]).toEqual(['player-42', proof(42)]);
    expect([leave.profile_id, leave.urm_profile_id_hash]).toEqual(['player-42', proof(42)]);
    expect([join.profile_id, join.urm_profile_id_hash]).toEqual(['player-43', proof(43)]);
  });

  test('a known profile set without a proof sends none, not the proof of the profile before', async () => {
    const browser = fakeBrowser({ permission: 'granted' });
    const client = new UrmNotification(browser.env);
    await client.initNotification(proved);

    await client.setProfileId('player-43');
    await client.disablePushNotification();

    expect(browser.profileRecords().at(-1)).toEqual(expect.objectContaining({ profile_id: 'player-43' }));
    expect(browser.profileRecords().at(-1)).not.toHaveProperty('urm_profile_id_hash');
  });

  test('a proof that is not 64 hex digits, or one without a profile id, rejects clearly', async () => {
    const client = new UrmNotification(fakeBrowser({ permission: 'granted' }).env);

    await expect(client.setProfileId('player-42', 'not-a-hash')).rejects.toThrow(/hex HMAC-SHA256/);
    await expect(client.initNotification({ ...settings, profileIdHash: 42 })).rejects.toThrow(/settings\.profileIdHash must be/);
    await expect(client.initNotification({ appId: 'app_1', apiKey: 'k', profileIdHash: proof(42) })).rejects.toThrow(/goes with settings\.profileId/);
  });
});

describe('the other methods', () => {
  async function initialised(permission: NotificationPermission = 'granted') {
    const browser = fakeBrowser({ permission });
    const client = new UrmNotification(browser.env);
    await client.initNotification(settings);
    return { browser, client };
  }

  test('enable and disable set urm_receives_notifications, keeping the subscription', async () => {
    const { browser, client } = await initialised();

    await client.disablePushNotification();
    await client.enablePushNotification();

    expect(
      browser
        .profileRecords()
        .slice(1)
        .map((r) => r.urm_set),
    ).toEqual([{ urm_receives_notifications: false }, { urm_receives_notifications: true }]);
    expect(browser.state.subscription?.unsubscribed).toBe(false);
  });

  test("disablePushNotificationPermanent unsubscribes, unregisters and removes this device's token", async () => {
    const { browser, client } = await initialised();

    await client.disablePushNotificationPermanent();

    expect(browser.state.subscription?.unsubscribed).toBe(true);
    expect(browser.state.registered).toBe(false);
    expect(browser.profileRecords()[1].urm_remove).toEqual({ [TOKENS]: [tokenOf(subscriptionJson('new-1'))] });
    expect(browser.storage.get('urm:app_1:token')).toBe(undefined);
  });

  test('disablePushNotificationPermanent rejects when no worker is registered, or no subscription exists', async () => {
    const { client } = await initialised();
    await client.disablePushNotificationPermanent();

    await expect(client.disablePushNotificationPermanent()).rejects.toThrow(/no service worker is registered/);

    const unsubscribed = fakeBrowser({ permission: 'granted' });
    const other = new UrmNotification(unsubscribed.env);
    await other.initNotification(settings);
    await unsubscribed.state.subscription!.unsubscribe();
    await expect(other.disablePushNotificationPermanent()).rejects.toThrow(/no push subscription/);
  });

  test('disablePushNotificationPermanentAllDevice empties the web, iOS and Android tokens', async () => {
    const { browser, client } = await initialised();

    await client.disablePushNotificationPermanentAllDevice();

    expect(browser.profileRecords()[1].urm_set).toEqual({
      urm_web_push_notification_token: [],
      urm_ios_push_notification_token: [],
      urm_android_push_notification_token: [],
    });
  });

  test('setPushNotificationToken attaches a token to the current profile', async () => {
    const { browser, client } = await initialised();
    const token = tokenOf(subscriptionJson('other'));

    await client.setPushNotificationToken(token);

    const records = browser.profileRecords().slice(1);
    expect(records.at(-1)?.urm_unique_append).toEqual({ [TOKENS]: [token] });
    await expect(client.setPushNotificationToken('')).rejects.toThrow(/a token is a push subscription/);
  });

  test('methods that need the settings reject before initNotification', async () => {
    const client = new UrmNotification(fakeBrowser({ permission: 'granted' }).env);

    for (const call of [
      () => client.enablePushNotification(),
      () => client.disablePushNotification(),
      () => client.disablePushNotificationPermanent(),
      () => client.disablePushNotificationPermanentAllDevice(),
      () => client.setPushNotificationToken('{}'),
    ]) {
      await expect(call()).rejects.toThrow(/call initNotification first/);
    }
  });

  test('an API refusal rejects with its status and message', async () => {
    const browser = fakeBrowser({ permission: 'granted' });
    browser.env.fetch = (async () => Response.json({ message: 'Forbidden' }, { status: 403 })) as unknown as typeof fetch;

    await expect(new UrmNotification(browser.env).initNotification(settings)).rejects.toThrow(/GET \/push\/config answered 403: Forbidden/);
  });
});

test("a subscription the browser's push service refuses rejects with the browser's reason, and stores nothing", async () => {
  const browser = fakeBrowser({ permission: 'granted' });
  browser.env.serviceWorker = {
    ...browser.env.serviceWorker!,
    ready: Promise.resolve({
      pushManager: {
        getSubscription: async () => null,
        subscribe: async () => {
          throw new DOMException('Registration failed - push service not available', 'AbortError');
        },
      },
      unregister: async () => true,
    }),
    register: async () => undefined,
  };

  await expect(new UrmNotification(browser.env).initNotification(settings)).rejects.toThrow(
    /could not subscribe to push \(Registration failed - push service not available\)/,
  );
  expect(browser.profileRecords().length).toBe(0);
});

describe('the write receipt', () => {
  /** initNotification for player-42 after an anonymous visit, with a renewed subscription: three records (merge, remove the old token, add the new), POSTed to `api`. */
  async function initWithThreeRecords(api: ReceiptApi) {
    const storage = new Map<string, string>();
    await new UrmNotification(fakeBrowser({ permission: 'granted', storage }).env).initNotification({ appId: 'app_1', apiKey: 'k' });
    const renewed = new FakeSubscription(subscriptionJson('renewed'), { applicationServerKey: vapidKey.buffer });
    const browser = fakeBrowser({ permission: 'granted', storage, existing: renewed });
    const pushConfig = browser.env.fetch;
    browser.env.fetch = ((url: string, init: RequestInit) => (init.method === 'POST' ? api.fetch(url, init) : pushConfig(url, init))) as typeof fetch;
    browser.env.wait = api.wait;
    return new UrmNotification(browser.env).initNotification(settings);
  }

  test('has only the failed record sent again, with the same insert id, and the method resolves once it is stored', async () => {
    const api = receiptApi((_, post, index) => post === 0 && index === 1);

    const result = await initWithThreeRecords(api);

    expect(result.subscribed).toBe(true);
    expect(api.posts.length).toBe(2);
    expect(api.posts[0].length).toBe(3);
    expect(api.posts[1]).toEqual([api.posts[0][1]]);
    expect(api.posts[1][0]).toEqual(expect.any(String));
  });

  test('rejects, saying what was not stored, when a record still fails after a bounded number of re-sends; the others are not sent again', async () => {
    const api = receiptApi((_, post, index) => post > 0 || index === 1);

    await expect(initWithThreeRecords(api)).rejects.toThrow(/1 of 3 records/);

    expect(api.posts.length).toBeGreaterThan(1);
    expect(api.posts.length).toBeLessThanOrEqual(4);
    expect(api.posts.slice(1)).toEqual(api.posts.slice(1).map(() => [api.posts[0][1]]));
  });

  test('with FailedRecordCount 0 sends nothing again', async () => {
    const api = receiptApi(() => false);

    await initWithThreeRecords(api);

    expect(api.posts.length).toBe(1);
    expect(api.waits).toEqual([]);
  });
});
