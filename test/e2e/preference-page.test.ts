/**
 * The email preference page as a player meets it, in headless Chromium
 * (docs/api.md, "Unsubscribe"): opened from the link of a marketing mail, one
 * topic left, the confirmation, then all marketing email left. The page runs
 * no script and passes checkPage (screenshots .urm/screenshots/preferences-*.png).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { testStack, type TestStack } from '../support/local-stack';
import { checkPage } from '../support/page-checks';
import { until } from '../support/profiles';
import { unsubscribeApp, type UnsubscribeApp } from '../support/unsubscribe';

let stack: TestStack;
let browser: Browser;
let app: UnsubscribeApp;

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await unsubscribeApp(stack, 'Lucky Star Casino', [
    { name: 'sports', label: 'Sports news and odds boosts' },
    { name: 'casino', label: 'Casino offers' },
    { name: 'vip', label: 'VIP events' },
  ]);
});
afterAll(async () => {
  await browser?.close();
});

/** Server-rendered: no script on the page; then checkPage. */
async function checkPreferencePage(page: Page, name: string) {
  expect({ name, scripts: await page.locator('script').count() }).toEqual({ name, scripts: 0 });
  await checkPage(page, name);
}

describe('the email preference page in Chromium', () => {
  test('open it from a mail link, leave one topic, see the confirmation, then unsubscribe from all', async () => {
    const id = await app.consentingPlayer();
    const page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();

    await page.goto(await app.link(id, 'casino'));
    await expect(page.getByRole('heading', { level: 1, name: 'Email preferences' }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('Lucky Star Casino').first().isVisible()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: 'Sports news and odds boosts' }).isChecked()).resolves.toBe(true);
    await checkPreferencePage(page, 'preferences');

    await page.getByRole('checkbox', { name: 'Sports news and odds boosts' }).uncheck();
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Save preferences' }).click()]);

    await expect(page.getByRole('status').textContent()).resolves.toContain('You will no longer get: Sports news and odds boosts.');
    await expect(page.getByRole('checkbox', { name: 'Sports news and odds boosts' }).isChecked()).resolves.toBe(false);
    await expect(page.getByRole('checkbox', { name: /Casino offers/ }).isChecked()).resolves.toBe(true);
    await checkPreferencePage(page, 'preferences-saved');
    await until(
      () => app.profileOf(id),
      (attributes) => JSON.stringify(attributes?.urm_unsubscribed_topics) === '["sports"]',
      'the topic to be left',
    );

    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Unsubscribe from all marketing email' }).click()]);

    await expect(page.getByRole('status').first().textContent()).resolves.toBe('Done. You are unsubscribed from all marketing email from Lucky Star Casino.');
    await expect(page.getByRole('button', { name: 'Unsubscribe from all marketing email' }).count()).resolves.toBe(0);
    await checkPreferencePage(page, 'preferences-unsubscribed');
    await until(
      () => app.profileOf(id),
      (attributes) => attributes?.urm_consent_email === false,
      'consent to be off',
    );

    // Opened again later, the page reads the player's state back.
    await page.goto(await app.link(id));
    await expect(page.getByText('You are unsubscribed from all marketing email from Lucky Star Casino.').isVisible()).resolves.toBe(true);
  });

  test('a link that was changed shows that it is not valid', async () => {
    const id = await app.consentingPlayer();
    const url = await app.link(id);
    const page = await (await browser.newContext()).newPage();

    const response = await page.goto(url.slice(0, -4));

    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('This link is not valid');
    await checkPreferencePage(page, 'preferences-invalid');
  });
});
