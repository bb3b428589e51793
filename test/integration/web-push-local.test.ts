/** What `npm start` serves for web push: the SDK files where the CDN has them, and the demo page with its local-only helpers. */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { distDir, sdkVersion } from '../../web-sdk/build';
import { identitySecretOf, proofOf } from '../support/identity';
import { testStack, type TestStack } from '../support/local-stack';
import { applyAndRead, profileRecord, send } from '../support/profiles';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

describe('the SDK files', () => {
  const files: [string, string, string][] = [
    ['/js/urm-notification.js', 'urm-notification.js', 'application/javascript'],
    [`/js/urm-notification.${sdkVersion()}.js`, `urm-notification.${sdkVersion()}.js`, 'application/javascript'],
    ['/js/urm-notification.js.map', 'urm-notification.js.map', 'application/json'],
    ['/urmSDKWorker.js', 'urmSDKWorker.js', 'application/javascript'],
    ['/urmSDKWorker.js.map', 'urmSDKWorker.js.map', 'application/json'],
  ];
  for (const [path, file, type] of files) {
    test(`GET ${path} is web-sdk/dist/${file} as ${type}`, async () => {
      const response = await fetch(`${stack.baseUrl}${path}?date=20261121`);

      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
      expect(await response.text()).toBe(readFileSync(join(distDir, file), 'utf8'));
    });
  }

  test('nothing else of web-sdk is served', async () => {
    for (const path of ['/js/build.ts', '/js/../build.ts', '/src/page/index.ts', '/js/urmSDKWorker.js']) {
      expect((await fetch(`${stack.baseUrl}${path}`)).status).toBe(404);
    }
  });
});

describe('the demo page', () => {
  /** The per-start token the served page carries and its helpers require, as the page's script reads it. */
  const demoToken = async () => {
    const page = await (await fetch(`${stack.baseUrl}/`)).text();
    const config = /<script id="urm-demo-config" type="application\/json">(.*?)<\/script>/s.exec(page)![1];
    return { 'X-Urm-Demo-Token': (JSON.parse(config) as { demoToken: string }).demoToken };
  };

  test("loads the page script with a date and configures the demo application's browser key, never another key", async () => {
    const response = await fetch(`${stack.baseUrl}/`);
    const html = await response.text();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toMatch(/<script src="\/js\/urm-notification\.js\?date=\d{8}"><\/script>/);
    expect(html.includes(stack.dev.browser_key)).toBeTruthy();
    expect(html.includes(stack.dev.app_id)).toBeTruthy();
    expect(html.includes(stack.dev.server_key)).toBe(false);
    expect(html.includes(stack.dev.comms_key)).toBe(false);
  });

  test('reads the profile and timeline through the local helpers, same origin only', async () => {
    const profileId = `demo-${randomUUID()}`;
    await applyAndRead(stack, profileId, [profileRecord(stack, profileId, { urm_set: { urm_receives_notifications: true } })]);
    await send(stack, '/events', [
      { app_id: stack.dev.app_id, profile_id: profileId, event: 'urm_push_received', urm_date_time: '2026-11-21T10:00:00Z', notification_id: 'n' },
    ]);

    // A same-origin GET carries no Origin; the browser says where it comes from in Sec-Fetch-Site.
    const profile = await fetch(`${stack.baseUrl}/demo/profile?profile_id=${profileId}`, {
      headers: { 'Sec-Fetch-Site': 'same-origin', ...(await demoToken()) },
    });
    const foreign = await fetch(`${stack.baseUrl}/demo/timeline?profile_id=${profileId}`, {
      headers: { Origin: 'https://evil.example', ...(await demoToken()) },
    });

    expect(profile.status).toBe(200);
    expect((await profile.json()).attributes.urm_receives_notifications).toBe(true);
    expect(foreign.status).toBe(403);
  });

  test('sends a push through the local helper, which answers as send_push does', async () => {
    const response = await fetch(`${stack.baseUrl}/demo/send-push`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: new URL(stack.baseUrl).origin, ...(await demoToken()) },
      body: JSON.stringify({ profile_id: `nobody-${randomUUID()}`, title: 'Hi', body: 'there' }),
    });

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'profile not found' });
  });

  test("proves a profile id with the demo application's identity secret, as an integrator's server does", async () => {
    const response = await fetch(`${stack.baseUrl}/demo/identity`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: new URL(stack.baseUrl).origin, ...(await demoToken()) },
      body: JSON.stringify({ profile_id: 'player-42' }),
    });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ profile_id: 'player-42', profile_id_hash: proofOf(await identitySecretOf(stack), 'player-42') });
  });

  test('refuses every helper to a request that does not say it comes from the page (curl), or says another site', async () => {
    const calls: [string, RequestInit][] = [
      ['/demo/identity', { method: 'POST', body: JSON.stringify({ profile_id: 'player-42' }) }],
      ['/demo/send-push', { method: 'POST', body: JSON.stringify({ profile_id: 'player-42', title: 't' }) }],
      ['/demo/profile?profile_id=player-42', {}],
      ['/demo/timeline?profile_id=player-42', {}],
    ];
    for (const [path, init] of calls) {
      for (const headers of [{}, { 'Sec-Fetch-Site': 'cross-site' }, { Origin: 'https://evil.example' }] as Record<string, string>[]) {
        const response = await fetch(`${stack.baseUrl}${path}`, {
          ...init,
          headers: { ...(init.body ? { 'Content-Type': 'application/json' } : {}), ...headers },
        });

        expect([path, response.status]).toEqual([path, 403]);
      }
    }
  });

  test('refuses a cross-origin or non-JSON send', async () => {
    const token = await demoToken();
    const post = (headers: Record<string, string>) =>
      fetch(`${stack.baseUrl}/demo/send-push`, { method: 'POST', headers: { ...token, ...headers }, body: JSON.stringify({ profile_id: 'p', title: 't' }) });

    expect((await post({ 'Content-Type': 'application/json', Origin: 'https://evil.example' })).status).toBe(403);
    expect((await post({ 'Content-Type': 'text/plain', Origin: new URL(stack.baseUrl).origin })).status).toBe(415);
  });
});
