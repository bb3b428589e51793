/** What `npm start` serves for web push: the SDK files where the CDN has them, and the demo page with its local-only helpers. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { distDir, sdkVersion } from '../../web-sdk/build';
import { testStack, type TestStack } from '../support/local-stack';
import { applyAndRead, profileRecord, send } from '../support/profiles';

let stack: TestStack;
before(async () => {
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

      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), `${type}; charset=utf-8`);
      assert.equal(await response.text(), readFileSync(join(distDir, file), 'utf8'));
    });
  }

  test('nothing else of web-sdk is served', async () => {
    for (const path of ['/js/build.ts', '/js/../build.ts', '/src/page/index.ts', '/js/urmSDKWorker.js']) {
      assert.equal((await fetch(`${stack.baseUrl}${path}`)).status, 404, path);
    }
  });
});

describe('the demo page', () => {
  test("loads the page script with a date and configures the demo application's browser key, never another key", async () => {
    const response = await fetch(`${stack.baseUrl}/`);
    const html = await response.text();

    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(html, /<script src="\/js\/urm-notification\.js\?date=\d{8}"><\/script>/);
    assert.ok(html.includes(stack.dev.browser_key));
    assert.ok(html.includes(stack.dev.app_id));
    assert.equal(html.includes(stack.dev.server_key), false);
    assert.equal(html.includes(stack.dev.comms_key), false);
  });

  test('reads the profile and timeline through the local helpers, same origin only', async () => {
    const profileId = `demo-${randomUUID()}`;
    await applyAndRead(stack, profileId, [profileRecord(stack, profileId, { urm_set: { urm_receives_notifications: true } })]);
    await send(stack, '/events', [{ app_id: stack.dev.app_id, profile_id: profileId, event: 'urm_push_received', urm_date_time: '2026-11-21T10:00:00Z', notification_id: 'n' }]);

    const profile = await fetch(`${stack.baseUrl}/demo/profile?profile_id=${profileId}`);
    const foreign = await fetch(`${stack.baseUrl}/demo/timeline?profile_id=${profileId}`, { headers: { Origin: 'https://evil.example' } });

    assert.equal(profile.status, 200);
    assert.equal((await profile.json()).attributes.urm_receives_notifications, true);
    assert.equal(foreign.status, 403);
  });

  test('sends a push through the local helper, which answers as send_push does', async () => {
    const response = await fetch(`${stack.baseUrl}/demo/send-push`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: new URL(stack.baseUrl).origin },
      body: JSON.stringify({ profile_id: `nobody-${randomUUID()}`, title: 'Hi', body: 'there' }),
    });

    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), { message: 'profile not found' });
  });

  test('refuses a cross-origin or non-JSON send', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${stack.baseUrl}/demo/send-push`, { method: 'POST', headers, body: JSON.stringify({ profile_id: 'p', title: 't' }) });

    assert.equal((await post({ 'Content-Type': 'application/json', Origin: 'https://evil.example' })).status, 403);
    assert.equal((await post({ 'Content-Type': 'text/plain' })).status, 415);
  });
});
