/**
 * The Settings page in Chromium: as an admin, create a server key (shown
 * once, and it works against POST /events), revoke it with a confirm (then
 * it stops working), and create an email channel with a sender the operator
 * assigned (another is refused beside the field); as a viewer, no Settings
 * in the nav, the page shows the server's 403, and forged POSTs get 403.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { assignSender } from '../../functions/back-office/senders';
import { commandLineActor } from '../../functions/domain/audit';
import { launchChromium } from '../support/chromium';
import { consoleApp, forgedPost, screenshot, signedInPage, type ConsoleApp } from '../support/console-browser';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;
/** The sender the operator assigned to this application. */
const sender = `news@casino-${randomUUID().slice(0, 8)}.example`;

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Settings casino');
  await assignSender(app.office, commandLineActor, app.appId, { email: sender });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const postEvent = (key: string) =>
  request(stack.baseUrl, 'POST', '/events', {
    key,
    body: [{ app_id: app.appId, profile_id: 'player-1', event: 'login', urm_date_time: '2026-11-21T10:00:00Z' }],
  });

describe('the Settings page, as an admin', () => {
  test('a new key is shown once and works against POST /events; revoked after a confirm, it stops working', async () => {
    const page = await signedInPage(stack, browser, app, 'admin');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();

    await page.getByLabel('Scope of a new key').selectOption('server');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.locator('.shown-once code.secret');
    await shown.waitFor();
    const key = (await shown.textContent())!;
    const keyId = (await page.locator('.shown-once header strong').textContent())!.replace(/^New key (\S+):.*$/, '$1');
    expect((await postEvent(key)).status).toBe(200);
    await screenshot(page, 'settings-key-created');

    await page.reload();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await expect(page.getByText(key).count()).resolves.toBe(0);
    await page.getByRole('button', { name: `Revoke ${keyId}` }).click();
    await page.getByRole('button', { name: `Yes, revoke ${keyId}` }).click();
    await page.getByRole('status').getByText(`Key ${keyId} revoked`).waitFor();
    await page.locator('tbody tr', { hasText: keyId }).getByText('revoked').waitFor();
    // The functions cache keys for 30 seconds: wait (bounded) until the key is refused.
    let status = 200;
    for (let attempt = 0; attempt < 40 && status === 200; attempt++) {
      status = (await postEvent(key)).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(status).toBe(403);

    await page.getByText(`Senders the operator assigned to this application: ${sender}.`).waitFor();
    await page.getByLabel('Channel name').fill('News');
    await page.getByLabel('From email').fill('news@example.com');
    await page.getByLabel('From name').fill('Casino News');
    await page.getByRole('button', { name: 'Create channel' }).click();
    await page.locator('#from-email-error').getByText('from_email must be a sender assigned to the application').waitFor();
    await expect(page.getByLabel('From email').getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, 'settings-sender-refused');
    await page.getByLabel('From email').fill(sender);
    await page.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('status').getByText('Channel “News” created.').waitFor();
    await page.locator('tbody tr', { hasText: 'Casino News' }).getByText('enabled').waitFor();
    await screenshot(page, 'settings');
    await page.context().close();
  }, 90_000);
});

describe('the Settings page, as a viewer', () => {
  test('is not in the nav, offers nothing, and forged POSTs get 403 from the server', async () => {
    const page = await signedInPage(stack, browser, app, 'viewer', '/console/settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();

    await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents()).resolves.toEqual([
      'Players',
      'Affiliates',
      'Rejections',
    ]);
    await page.getByText('Your role does not allow this.').waitFor();
    await expect(page.getByRole('button', { name: 'Create key' }).count()).resolves.toBe(0);
    const forged = await forgedPost(page, '/console/api/keys', { scope: 'server' });
    expect(forged).toEqual({ status: 403, body: { message: 'Forbidden' } });
    await screenshot(page, 'viewer-settings');
    await page.context().close();
  });
});
