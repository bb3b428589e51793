/**
 * The player page as a player 360, in Chromium: a player with a name,
 * consent, an RG status, an affiliate, deposits and logins shows its name as
 * the heading with its id beneath, its badges, its last login and days since
 * registration beside its money, its deposit as a sentence, and the
 * timeline filtered by name and dates on the server.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { setMoneySettings } from '../../functions/back-office/money';
import { commandLineActor } from '../../functions/domain/audit';
import { registerAffiliate } from '../support/affiliates';
import { launchChromium } from '../support/chromium';
import { consoleApp, screenshot, signedInPage, type ConsoleApp } from '../support/console-browser';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { checkPage } from '../support/page-checks';

let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;
let affiliateId: string;
const player = `grace-${randomUUID().slice(0, 8)}`;
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const localDay = (days: number) => {
  const date = new Date(Date.now() - days * DAY);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
};

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Player 360 casino');
  // Set before the first event: the funnel consumer caches the settings.
  await setMoneySettings(app.office, app.appId, commandLineActor, { currency: 'EUR', money_events: { Deposit: 'deposit', Cashout: 'withdrawal' } });
  affiliateId = (await registerAffiliate(stack.baseUrl, app)).id;
  const post = (path: string, body: unknown) => request(stack.baseUrl, 'POST', path, { key: app.serverKey, body });
  const profile = await post('/profiles', [
    {
      app_id: app.appId,
      profile_id: player,
      urm_date_time: daysAgo(40),
      first_name: 'Grace',
      last_name: 'Hopper',
      country: 'MT',
      urm_rg_status: 'cool_off',
      urm_rg_until: '2099-01-01T00:00:00Z',
      urm_consent_email: true,
      urm_consent_sms: false,
      urm_receives_notifications: true,
    },
  ]);
  expect(profile.status).toBe(200);
  expect((await post('/api/set_affiliate', { app_id: app.appId, profile_id: player, urm_aff_id: affiliateId })).status).toBe(200);
  const event = (event: string, days: number, fields: Record<string, unknown> = {}) => ({
    app_id: app.appId,
    profile_id: player,
    event,
    urm_date_time: daysAgo(days),
    ...fields,
  });
  const events = await post('/events', [
    event('Register', 30),
    event('Deposit', 20, { amount: 25, currency: 'EUR', method: 'card' }),
    event('Login', 10),
    event('Cashout', 5, { amount: 10, currency: 'EUR' }),
    event('Login', 2),
    event('spin', 1, { game: 'blackjack' }),
  ]);
  expect(events.body.FailedRecordCount).toBe(0);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('the player page as a player 360', () => {
  test('shows the name with the id beneath, the badges, the last login and days since registration, money as sentences, and filters the timeline', async () => {
    const page = await signedInPage(stack, browser, app, 'admin', `/console/players/${player}`);
    const heading = page.getByRole('heading', { name: 'Grace Hopper', level: 1 });
    // Days since registration count from the first event (Register, 30 days ago): the profile keeps no creation time.
    // The consumers apply the records within seconds: read the page again until the deposit is counted and on the timeline.
    const deposited = page.locator('table.timeline').getByText('Deposited 25.00 EUR by card', { exact: true });
    const counted = page.locator('#kpi-deposits .kpi-value');
    for (let attempt = 0; attempt < 20 && !((await deposited.isVisible()) && (await counted.isVisible())); attempt++) {
      await page.waitForTimeout(1000);
      await page.reload();
      await heading.waitFor();
    }

    await expect(page.locator('.player-id').textContent()).resolves.toBe(`ID ${player}`);
    await expect(page.locator('.player-badges .badge').allTextContents()).resolves.toEqual([
      'RG: cool off until 2099-01-01',
      'Email: opted in',
      'SMS: opted out',
      'Push: opted in',
    ]);
    const affiliate = page.getByRole('link', { name: `Affiliate ${affiliateId}`, exact: true });
    await expect(affiliate.getAttribute('href')).resolves.toBe(`/console/affiliates/${affiliateId}`);
    const activity = page.getByRole('list', { name: 'Activity' });
    await expect(activity.locator('#kpi-last-login .kpi-value').textContent()).resolves.toBe('2 days ago');
    await expect(activity.locator('#kpi-days-registered .kpi-value').textContent()).resolves.toBe('30');
    await expect(counted.textContent()).resolves.toBe('25.00 EUR');
    await expect(page.locator('#kpi-deposit-count .kpi-value').textContent()).resolves.toBe('1');
    await page.locator('table.timeline').getByText('Withdrew 10.00 EUR', { exact: true }).waitFor();
    // Own attributes apart from the service's.
    await page.getByRole('heading', { name: 'System attributes (urm_)', level: 3 }).waitFor();
    await checkPage(page, 'console-player-360');
    // The widths checkPage does not take: a tablet and a wide screen, neither scrolling sideways.
    for (const width of [768, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);
      await screenshot(page, `player-360-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // The timeline filtered on the server: Logins only, then the days around the first one.
    await page.getByLabel('Event name (exact; empty for all)').fill('Login');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    const rows = page.locator('table.timeline tbody tr');
    await rows.locator('td.event-name', { hasText: 'spin' }).waitFor({ state: 'detached' });
    await expect(rows.locator('td.event-name').allTextContents()).resolves.toEqual(['Login', 'Login']);
    await page.getByLabel('From', { exact: true }).fill(localDay(11));
    await page.getByLabel('To', { exact: true }).fill(localDay(9));
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.locator('table.timeline tbody tr:only-child td.event-name', { hasText: 'Login' }).waitFor();
    await screenshot(page, 'player-360-filtered');

    await page.getByRole('button', { name: 'Show all' }).click();
    await rows.nth(5).waitFor();
    await page.context().close();
  }, 90_000);
});
