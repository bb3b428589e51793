/**
 * What the browser key may do (docs/api.md, "The browser key"), over HTTP:
 * the push SDK's calls pass, every other call is a 403 that writes nothing,
 * a known profile needs its identity proof, and CORS answers only the
 * application's site origins.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { directives } from '../../functions/domain/attributes';
import { pushLimits } from '../../functions/domain/push';
import { httpOperations, httpRoutes, type HttpOperation, keyAuthenticated } from '../../functions/manifest/operations';
import { request } from '../support/http';
import { identitySecretOf, proofOf as proofWith } from '../support/identity';
import { adminCli, testStack, type TestStack } from '../support/local-stack';
import { applyAndRead, at, profileRecord, readProfile, readTimeline, send, until } from '../support/profiles';

let stack: TestStack;
let siteOrigin: string;
let identitySecret: string;
beforeAll(async () => {
  stack = await testStack();
  siteOrigin = new URL(stack.baseUrl).origin;
  // What the integrator's server holds; the demo application gets it at npm start.
  identitySecret = await identitySecretOf(stack);
});

const token = JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 'BPk9', auth: 'c2VjcmV0' } });
const subscription = (name: string) =>
  JSON.stringify({ endpoint: `https://fcm.googleapis.com/fcm/send/${name}`, keys: { p256dh: `BP${name}`, auth: `au${name}` } });
/** The integrator's server: hex HMAC-SHA256 of the profile id with the application's identity secret. */
const proofOf = (profileId: string) => proofWith(identitySecret, profileId);
/** As the SDK calls from a page of the site: browsers send an Origin with every POST. */
const browserPost = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  request(stack.baseUrl, 'POST', `${path}?app_id=${stack.dev.app_id}`, { key: stack.dev.browser_key, body, headers: { Origin: siteOrigin, ...headers } });
/** As curl does: the page's public browser key, and no Origin. */
const curlPost = (path: string, body: unknown) => request(stack.baseUrl, 'POST', `${path}?app_id=${stack.dev.app_id}`, { key: stack.dev.browser_key, body });
/** The operations a browser key is for (`browser: true`), and those that take a key but not a browser's. */
const browserOperations = httpOperations.filter((operation) => operation.browser);
const keyedOperations = httpOperations.filter((operation) => !operation.browser && keyAuthenticated(operation));
const concretePath = (operation: Pick<HttpOperation, 'path'>) => operation.path.replace(/\{\w+\}/g, 'p1');
const accessControlHeaders = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith('access-control-'));
const lifecycle = (profileId: string, fields: Record<string, unknown> = {}) => ({
  app_id: stack.dev.app_id,
  profile_id: profileId,
  event: 'urm_push_received',
  urm_date_time: at,
  urm_insert_id: `n-${profileId}:received`,
  notification_id: `n-${profileId}`,
  ...fields,
});

describe('a browser key may', () => {
  test('read the VAPID public key, even without an Origin (same-origin GETs carry none)', async () => {
    const response = await request(stack.baseUrl, 'GET', `/push/config?app_id=${stack.dev.app_id}`, { key: stack.dev.browser_key });

    expect(response.status).toBe(200);
    expect(response.body.vapid_public_key).toMatch(/^B[A-Za-z0-9_-]{86}$/);
  });

  test('store a token, pause notifications and merge an anonymous visitor into a known profile with its proof', async () => {
    const anonymous = `urm-anon-${randomUUID()}`;
    const known = `known-${randomUUID()}`;

    const visitor = await browserPost('/profiles', [
      profileRecord(stack, anonymous, {
        urm_set_if_null: { urm_receives_notifications: true },
        urm_unique_append: { urm_web_push_notification_token: [token] },
      }),
    ]);
    expect(visitor.status).toBe(200);
    // Records of different profiles may sit on different shards: order holds per profile only, so the visitor's is applied first.
    await until(
      () => readProfile(stack, anonymous),
      (r) => r.status === 200,
      'the visitor profile',
    );

    const stored = await browserPost('/profiles', [
      profileRecord(stack, known, { urm_merge: [anonymous], urm_profile_id_hash: proofOf(known) }),
      profileRecord(stack, known, { urm_set: { urm_receives_notifications: false }, urm_profile_id_hash: proofOf(known) }),
    ]);

    expect(stored.status).toBe(200);
    expect(await applyAndRead(stack, known, [])).toEqual({ urm_receives_notifications: false, urm_web_push_notification_token: [token] });
  });

  test('report the notification lifecycle', async () => {
    const profileId = `life-${randomUUID()}`;

    const response = await browserPost('/events', [lifecycle(profileId, { url: 'https://casino.example/x' })]);

    expect(response.status).toBe(200);
  });
});

describe('an attacker with the public browser key is refused (403) and nothing is written', () => {
  /** player-42 as the integrator's server made them: a subscribed device, notifications on. */
  async function victim(): Promise<string> {
    const profileId = `player-${randomUUID()}`;
    await applyAndRead(stack, profileId, [
      profileRecord(stack, profileId, {
        urm_set: { urm_receives_notifications: true },
        urm_unique_append: { urm_web_push_notification_token: [subscription('victim')] },
      }),
    ]);
    return profileId;
  }
  const untouched = { urm_receives_notifications: true, urm_web_push_notification_token: [subscription('victim')] };
  const forbidden = { status: 403, body: { message: 'Forbidden' } };
  const answer = (response: { status: number; body: unknown }) => ({ status: response.status, body: response.body });

  test('POST /profiles without an Origin, even for an anonymous visitor with a valid record', async () => {
    const anonymous = `urm-anon-${randomUUID()}`;

    const response = await curlPost('/profiles', [profileRecord(stack, anonymous, { urm_unique_append: { urm_web_push_notification_token: [token] } })]);

    expect(answer(response)).toEqual(forbidden);
    expect(await applyAndRead(stack, anonymous, [])).toEqual({});
  });

  test('POST /events without an Origin', async () => {
    const profileId = `urm-anon-${randomUUID()}`;

    const response = await curlPost('/events', [lifecycle(profileId)]);

    expect(answer(response)).toEqual(forbidden);
  });

  const withoutProof: [string, (id: string) => Record<string, unknown>][] = [
    ["appending the attacker's subscription", () => ({ urm_unique_append: { urm_web_push_notification_token: [subscription('attacker')] } })],
    ["removing the player's token", () => ({ urm_remove: { urm_web_push_notification_token: [subscription('victim')] } })],
    ["unsetting the player's tokens", () => ({ urm_unset: ['urm_web_push_notification_token'] })],
    ['turning notifications off', () => ({ urm_set: { urm_receives_notifications: false } })],
    [
      'emptying every device (disablePushNotificationPermanentAllDevice)',
      () => ({ urm_set: { urm_web_push_notification_token: [], urm_ios_push_notification_token: [], urm_android_push_notification_token: [] } }),
    ],
    ['merging an anonymous visitor into the player', () => ({ urm_merge: [`urm-anon-${randomUUID()}`] })],
    ['a proof of another profile', () => ({ urm_set: { urm_receives_notifications: false }, urm_profile_id_hash: proofOf(`attacker-${randomUUID()}`) })],
    ['a wrong proof', () => ({ urm_set: { urm_receives_notifications: false }, urm_profile_id_hash: 'ab'.repeat(32) })],
  ];
  for (const [name, fields] of withoutProof) {
    test(`POST /profiles to a known player from a site origin: ${name}`, async () => {
      const profileId = await victim();

      const response = await browserPost('/profiles', [profileRecord(stack, profileId, fields(profileId))]);

      expect(answer(response)).toEqual(forbidden);
      expect(await applyAndRead(stack, profileId, [])).toEqual(untouched);
    });
  }

  test('a batch whose every record but one carries its proof', async () => {
    const [proved, unproved] = [await victim(), await victim()];

    const response = await browserPost('/profiles', [
      profileRecord(stack, proved, { urm_set: { urm_receives_notifications: false }, urm_profile_id_hash: proofOf(proved) }),
      profileRecord(stack, unproved, { urm_set: { urm_receives_notifications: false }, urm_profile_id_hash: proofOf(proved) }),
    ]);

    expect(answer(response)).toEqual(forbidden);
    expect(await applyAndRead(stack, proved, [])).toEqual(untouched);
    expect(await applyAndRead(stack, unproved, [])).toEqual(untouched);
  });

  // Even a page that holds the proof (the player's own, or one an attacker took) changes only its own browser's subscription.
  const withProof: [string, Record<string, unknown>][] = [
    ["replacing the player's tokens with its own (top level)", { urm_web_push_notification_token: [subscription('attacker')] }],
    ["replacing the player's tokens with its own (urm_set)", { urm_set: { urm_web_push_notification_token: [subscription('attacker')] } }],
    [
      'removing a token it does not present whole (the endpoint only)',
      { urm_remove: { urm_web_push_notification_token: ['https://push.example.com/send/victim'] } },
    ],
    ["unsetting the player's tokens", { urm_unset: ['urm_web_push_notification_token'] }],
    ["deleting the player's tokens", { urm_delete: ['urm_web_push_notification_token'] }],
    ["removing the player's iOS token", { urm_remove: { urm_ios_push_notification_token: ['apns-device-token'] } }],
  ];
  for (const [name, fields] of withProof) {
    test(`POST /profiles to a known player with its proof: ${name}`, async () => {
      const profileId = await victim();

      const response = await browserPost('/profiles', [profileRecord(stack, profileId, { ...fields, urm_profile_id_hash: proofOf(profileId) })]);

      expect(answer(response)).toEqual(forbidden);
      expect(await applyAndRead(stack, profileId, [])).toEqual(untouched);
    });
  }
});

describe('a page with the proof of its player', () => {
  test("adds its subscription, removes exactly its own, and pauses the player's notifications", async () => {
    const profileId = `player-${randomUUID()}`;
    const proof = { urm_profile_id_hash: proofOf(profileId) };
    await send(stack, '/profiles', [profileRecord(stack, profileId, { urm_unique_append: { urm_web_push_notification_token: [subscription('phone')] } })]);

    const added = await browserPost('/profiles', [
      profileRecord(stack, profileId, { ...proof, urm_unique_append: { urm_web_push_notification_token: [subscription('laptop')] } }),
    ]);
    const paused = await browserPost('/profiles', [profileRecord(stack, profileId, { ...proof, urm_set: { urm_receives_notifications: false } })]);
    const removed = await browserPost('/profiles', [
      profileRecord(stack, profileId, { ...proof, urm_remove: { urm_web_push_notification_token: [subscription('laptop')] } }),
    ]);

    expect([added.status, paused.status, removed.status]).toEqual([200, 200, 200]);
    // The proof is a credential: it is never stored on the profile.
    expect(await applyAndRead(stack, profileId, [])).toEqual({ urm_receives_notifications: false, urm_web_push_notification_token: [subscription('phone')] });
  });

  test('empties every device of the player (disablePushNotificationPermanentAllDevice)', async () => {
    const profileId = `player-${randomUUID()}`;
    await send(stack, '/profiles', [profileRecord(stack, profileId, { urm_unique_append: { urm_web_push_notification_token: [subscription('phone')] } })]);

    const response = await browserPost('/profiles', [
      profileRecord(stack, profileId, {
        urm_profile_id_hash: proofOf(profileId).toUpperCase(),
        urm_set: { urm_web_push_notification_token: [], urm_ios_push_notification_token: [], urm_android_push_notification_token: [] },
      }),
    ]);

    expect(response.status).toBe(200);
    expect(await applyAndRead(stack, profileId, [])).toEqual({
      urm_web_push_notification_token: [],
      urm_ios_push_notification_token: [],
      urm_android_push_notification_token: [],
    });
  });
});

describe('identity verification from the admin command line', () => {
  const admin = async (...args: string[]) => JSON.parse(await adminCli(stack.dataDir, args));
  /** A new application of the site, as `app create` makes it, and a browser key of it. */
  async function newApp(): Promise<{ appId: string; secret: string; post: (profileId: string, proof?: string) => Promise<number> }> {
    const app = await admin('app', 'create', '--name', `identity ${randomUUID()}`, '--site-origin', siteOrigin);
    const { key } = await admin('key', 'create', '--app', app.app_id, '--scope', 'browser');
    const post = async (profileId: string, proof?: string) =>
      (
        await request(stack.baseUrl, 'POST', `/profiles?app_id=${app.app_id}`, {
          key,
          headers: { Origin: siteOrigin },
          body: [
            {
              app_id: app.app_id,
              profile_id: profileId,
              urm_date_time: at,
              urm_set: { urm_receives_notifications: false },
              ...(proof ? { urm_profile_id_hash: proof } : {}),
            },
          ],
        })
      ).status;
    return { appId: app.app_id, secret: app.identity_secret, post };
  }

  test('a new application verifies identity: its secret, shown once by app create, proves profile ids', async () => {
    const app = await newApp();

    expect(app.secret).toMatch(/^urm_identity_[A-Za-z0-9_-]{43}$/);
    expect(await app.post('player-1')).toBe(403);
    expect(await app.post('player-1', proofWith(app.secret, 'player-1'))).toBe(200);
    expect((await admin('app', 'list')).find((listed: { app_id: string }) => listed.app_id === app.appId)).not.toHaveProperty('identity_secret');
  });

  test('app identity --rotate makes a new secret: proofs of the old one stop working', async () => {
    const app = await newApp();

    const { identity_secret: rotated } = await admin('app', 'identity', '--app', app.appId, '--rotate');

    expect(rotated).not.toBe(app.secret);
    expect(await app.post('player-1', proofWith(app.secret, 'player-1'))).toBe(403);
    expect(await app.post('player-1', proofWith(rotated, 'player-1'))).toBe(200);
  });

  test('app identity --off lets the browser key write known profiles without a proof (what docs/api.md warns of)', async () => {
    const app = await newApp();

    const off = await admin('app', 'identity', '--app', app.appId, '--off');

    expect(off).toEqual({ app_id: app.appId, identity_verification: 'off' });
    expect(await app.post('player-1')).toBe(200);
  });
});

describe('a browser key is refused (403) and nothing is written', () => {
  const refusedProfiles: [string, (id: string) => Record<string, unknown>][] = [
    ['a custom attribute', () => ({ vip: true })],
    ['a merge of a known profile', () => ({ urm_merge: ['someone-else'] })],
    ['a token that is not a push subscription', () => ({ urm_unique_append: { urm_web_push_notification_token: ['not-a-subscription'] } })],
    ['an IP address', () => ({ urm_ip: '192.0.2.1' })],
    ['a merge of an anonymous visitor and a known profile', () => ({ urm_merge: [`urm-anon-${randomUUID()}`, 'someone-else'] })],
    ['an iOS token added', () => ({ urm_unique_append: { urm_ios_push_notification_token: ['apns-device-token'] } })],
    ['an Android token set', () => ({ urm_set: { urm_android_push_notification_token: ['fcm-device-token'] } })],
    ['a web token set that is not a push subscription', () => ({ urm_set: { urm_web_push_notification_token: ['https://push.example.com/x'] } })],
    // Every directive but the two with their own rules (urm_merge, urm_delete_profile), naming a custom attribute.
    ...directives
      .filter((directive) => directive !== 'urm_merge' && directive !== 'urm_delete_profile')
      .map((directive): [string, (id: string) => Record<string, unknown>] => [
        `a custom attribute in ${directive}`,
        () => ({
          [directive]:
            directive === 'urm_unset' || directive === 'urm_delete'
              ? ['vip']
              : { vip: directive === 'urm_add' ? 1 : ['urm_append', 'urm_unique_append', 'urm_remove'].includes(directive) ? ['gold'] : true },
        }),
      ]),
  ];
  for (const [name, fields] of refusedProfiles) {
    test(`POST /profiles with ${name}`, async () => {
      const profileId = `refused-${randomUUID()}`;

      const response = await browserPost('/profiles', [profileRecord(stack, profileId, fields(profileId))]);

      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: 'Forbidden' });
      expect(await applyAndRead(stack, profileId, [])).toEqual({});
    });
  }

  test('POST /profiles deleting a profile', async () => {
    const profileId = `kept-${randomUUID()}`;
    await send(stack, '/profiles', [profileRecord(stack, profileId, { country: 'MT' })]);

    const response = await browserPost('/profiles', [profileRecord(stack, profileId, { urm_delete_profile: 'profile_id' })]);

    expect(response.status).toBe(403);
    expect(await applyAndRead(stack, profileId, [])).toEqual({ country: 'MT' });
  });

  const refusedEvents: [string, Record<string, unknown>][] = [
    ['an event that is not a lifecycle event', { event: 'deposit' }],
    ['a lifecycle event with another attribute', { amount: 100 }],
    ['a lifecycle event without its notification id', { notification_id: undefined }],
    ['a lifecycle event with a url over its bound', { url: `https://casino.example/${'x'.repeat(pushLimits.urlLength)}` }],
    // Events the service itself writes: a page must not forge them.
    ['urm_push_sent', { event: 'urm_push_sent' }],
    ['urm_email_sent', { event: 'urm_email_sent' }],
    ['urm_affiliate_attributed', { event: 'urm_affiliate_attributed' }],
  ];
  for (const [name, fields] of refusedEvents) {
    test(`POST /events with ${name}`, async () => {
      const profileId = `refused-${randomUUID()}`;
      const event = JSON.parse(JSON.stringify(lifecycle(profileId, fields)));

      const response = await browserPost('/events', [lifecycle(profileId), event]);

      expect(response.status).toBe(403);
      // Anything written before the marker (same profile, same shard) would be on the timeline with it.
      await send(stack, '/events', [{ ...lifecycle(profileId), event: 'marker', urm_insert_id: 'marker' }]);
      const timeline = await until(
        () => readTimeline(stack, profileId),
        (list) => list.length > 0,
        'the marker event',
      );
      expect(timeline.map((entry) => entry.event)).toEqual(['marker']);
    });
  }

  // Every other operation that takes a key, from functions/manifest/operations.ts: one added later is covered too.
  // (The portal pages take no key at all: a browser key opens nothing there either.)
  for (const operation of keyedOperations) {
    test(`${operation.method} ${operation.path}`, async () => {
      const response = await request(stack.baseUrl, operation.method, `${concretePath(operation)}?app_id=${stack.dev.app_id}`, {
        key: stack.dev.browser_key,
        body: operation.method === 'POST' ? { app_id: stack.dev.app_id, profile_id: 'p1' } : undefined,
        headers: { Origin: siteOrigin },
      });

      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: 'Forbidden' });
    });
  }

  test('a record of another application, even a lifecycle event', async () => {
    const other = { ...lifecycle(`other-${randomUUID()}`), app_id: 'app_00000000000000000000' };

    const response = await browserPost('/events', [other]);

    expect(response.status).toBe(403);
  });

  test('the push configuration of another application', async () => {
    const response = await request(stack.baseUrl, 'GET', '/push/config?app_id=app_00000000000000000000', { key: stack.dev.browser_key });

    expect(response.status).toBe(403);
  });
});

describe('CORS', () => {
  const preflight = (path: string, origin: string, query = `?app_id=${stack.dev.app_id}`) =>
    fetch(`${stack.baseUrl}${path}${query}`, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': path === '/push/config' ? 'GET' : 'POST',
        'Access-Control-Request-Headers': 'content-type, x-api-key',
      },
    });

  for (const [path, method] of [
    ['/profiles', 'POST'],
    ['/events', 'POST'],
    ['/push/config', 'GET'],
  ]) {
    test(`a preflight of ${path} from a site origin of the application is allowed`, async () => {
      const response = await preflight(path, siteOrigin);

      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(siteOrigin);
      expect(response.headers.get('access-control-allow-methods')).toBe(method);
      expect(response.headers.get('access-control-allow-headers') ?? '').toMatch(/x-api-key/i);
      expect(response.headers.get('vary')).toBe('Origin');
    });
  }

  test('a preflight from another origin, or without the application, is refused without CORS headers', async () => {
    for (const response of [await preflight('/profiles', 'https://evil.example'), await preflight('/profiles', siteOrigin, '')]) {
      expect(response.status).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBe(null);
    }
  });

  /** A call the push SDK makes to each browser operation, as a page would from `origin`. */
  const sdkCall = (operation: HttpOperation, origin: string) => {
    const profileId = `cors-${randomUUID()}`;
    const bodies: Record<string, unknown> = {
      '/profiles': [profileRecord(stack, profileId, { urm_set: { urm_receives_notifications: true }, urm_profile_id_hash: proofOf(profileId) })],
      '/events': [lifecycle(profileId)],
    };
    expect(operation.method === 'GET' || operation.path in bodies).toBeTruthy();
    return request(stack.baseUrl, operation.method, `${operation.path}?app_id=${stack.dev.app_id}`, {
      key: stack.dev.browser_key,
      body: bodies[operation.path],
      headers: { Origin: origin },
    });
  };

  for (const operation of browserOperations) {
    test(`a browser key's answer from ${operation.method} ${operation.path} to a site origin carries Access-Control-Allow-Origin`, async () => {
      const response = await sdkCall(operation, siteOrigin);

      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(siteOrigin);
    });

    test(`a browser key used from another origin on ${operation.method} ${operation.path} is refused without CORS headers`, async () => {
      const response = await sdkCall(operation, 'https://evil.example');

      expect(response.status).toBe(403);
      expect(accessControlHeaders(response.headers)).toEqual([]);
    });
  }

  // Every other address, keyed or not (the portal pages, the console's routes), from functions/manifest/operations.ts; but the
  // enterprise portal's two pages, whose redirects fetch would follow to the console's page (test/integration/enterprise.test.ts).
  for (const operation of httpRoutes().filter((candidate) => !candidate.browser && candidate.functionId !== 'EnterprisePortal')) {
    test(`${operation.method} ${operation.path} answers no CORS at all: no preflight, no header for any key, even from a site origin`, async () => {
      const path = `${concretePath(operation)}?app_id=${stack.dev.app_id}`;
      const preflight = await fetch(`${stack.baseUrl}${path}`, {
        method: 'OPTIONS',
        headers: { Origin: siteOrigin, 'Access-Control-Request-Method': operation.method, 'Access-Control-Request-Headers': 'content-type, x-api-key' },
      });
      const answers = await Promise.all(
        [stack.dev.server_key, stack.dev.comms_key, stack.dev.browser_key].map((key) =>
          request(stack.baseUrl, operation.method, path, {
            key,
            body: operation.method === 'POST' ? { app_id: stack.dev.app_id } : undefined,
            headers: { Origin: siteOrigin },
          }),
        ),
      );

      // An operation's path refuses the method (405); a routed function's router has no OPTIONS route (404).
      expect(preflight.status).toBe(operation.functionId === operation.id ? 405 : 404);
      expect(accessControlHeaders(preflight.headers)).toEqual([]);
      for (const answer of answers) expect(accessControlHeaders(answer.headers)).toEqual([]);
    });
  }

  test('a browser key used from another origin writes nothing', async () => {
    const profileId = `cors-${randomUUID()}`;

    const response = await browserPost('/profiles', [profileRecord(stack, profileId, { urm_set: { urm_receives_notifications: true } })], {
      Origin: 'https://evil.example',
    });

    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBe(null);
    expect(await applyAndRead(stack, profileId, [])).toEqual({});
  });

  test('a server key gets no CORS headers, even from a site origin: server keys are not for pages', async () => {
    const response = await request(stack.baseUrl, 'POST', `/events?app_id=${stack.dev.app_id}`, {
      key: stack.dev.server_key,
      body: [lifecycle(`cors-${randomUUID()}`)],
      headers: { Origin: siteOrigin },
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(null);
  });

  test('a refused key from a site origin is a 403 the page can read', async () => {
    const response = await request(stack.baseUrl, 'POST', `/events?app_id=${stack.dev.app_id}`, {
      key: 'urm_browser_revoked-or-unknown',
      body: [lifecycle('p')],
      headers: { Origin: siteOrigin },
    });

    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBe(siteOrigin);
  });
});
