/**
 * Home in Chromium: `/console/` opens on the application's figures. Profiles
 * and money events are sent with the server key as an integrator sends them;
 * the page shows the players now and the last 30 days' registrations, FTDs,
 * deposits and NGR, their chart by day (and its table), and still finds a player.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { setMoneySettings } from '../../functions/back-office/money';
import { commandLineActor } from '../../functions/domain/audit';
import { launchChromium } from '../support/chromium';
import { consoleApp, screenshot, signedInPage, type ConsoleApp } from '../support/console-browser';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { checkPage } from '../support/page-checks';

let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
// Inside the last 30 days whenever the test runs.
const moneyDay = daysAgo(3);

async function ingest(path: '/profiles' | '/events', records: Record<string, unknown>[]) {
  const response = await request(stack.baseUrl, 'POST', path, { key: app.serverKey, body: records.map((r) => ({ app_id: app.appId, ...r })) });
  expect(response.body.FailedRecordCount).toBe(0);
}

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Home casino');
  // Before the first event: the funnel consumer caches an application's settings.
  await setMoneySettings(app.office, app.appId, commandLineActor, { currency: 'EUR', money_events: { Deposit: 'deposit', Bet: 'bet', Win: 'win' } });
  const now = new Date().toISOString();
  await ingest('/profiles', [
    { profile_id: 'player-1', urm_date_time: now },
    { profile_id: 'player-2', urm_date_time: now },
    { profile_id: 'player-3', urm_date_time: now },
  ]);
  const money = (profileId: string, event: string, amount: number) => ({
    profile_id: profileId,
    event,
    amount,
    currency: 'EUR',
    urm_date_time: `${moneyDay}T15:00:00Z`,
  });
  await ingest('/events', [money('player-1', 'Deposit', 250), money('player-2', 'Deposit', 50.5), money('player-1', 'Bet', 120), money('player-1', 'Win', 20)]);
  // What the send gate records when it holds a message back (docs/api.md, "The send gate").
  const held = (profileId: string, reason: string) => ({
    profile_id: profileId,
    event: 'urm_message_suppressed',
    reason,
    channel: 'email',
    urm_date_time: now,
  });
  await ingest('/events', [held('player-1', 'rg_status'), held('player-2', 'rg_status'), held('player-3', 'no_consent')]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('Home, as an admin', () => {
  test("/console/ opens on the application's figures: players, the last 30 days against the 30 before, a chart by day with its table", async () => {
    const page = await signedInPage(stack, browser, app, 'admin');
    expect(page.url()).toBe(`${stack.baseUrl}/console/`);

    // The consumers count within seconds of the 200: the page is read again until they have.
    const ngr = page.locator('#kpi-ngr .kpi-value');
    await ngr.waitFor();
    for (let attempt = 0; attempt < 30 && (await ngr.textContent().catch(() => ''))?.trim() !== '100.00 EUR'; attempt++) {
      await page.waitForTimeout(500);
      await page.reload();
      await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
      await ngr.waitFor();
    }

    await expect(page.locator('#kpi-players .kpi-value').textContent()).resolves.toBe('3');
    const figures = page.getByRole('list', { name: 'Last 30 days' });
    await expect(figures.locator('#kpi-registrations .kpi-value').textContent()).resolves.toBe('3');
    await expect(figures.locator('#kpi-ftds .kpi-value').textContent()).resolves.toBe('2');
    await expect(figures.locator('#kpi-deposits .kpi-value').textContent()).resolves.toBe('300.50 EUR');
    await expect(figures.locator('#kpi-deposits .kpi-note').textContent()).resolves.toBe('2 deposits');
    await expect(ngr.textContent()).resolves.toBe('100.00 EUR');
    // Nothing in the 30 days before: each figure is new.
    await expect(figures.locator('#kpi-ftds .kpi-change').textContent()).resolves.toMatch(/^new/);

    // The send gate's refusals, by reason, most first.
    const notSent = page.getByRole('region', { name: 'Messages not sent (last 30 days)' }).getByRole('listitem');
    for (let attempt = 0; attempt < 30 && (await notSent.count()) < 2; attempt++) {
      await page.waitForTimeout(500);
      await page.reload();
      await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    }
    await expect(notSent.allInnerTexts()).resolves.toEqual([expect.stringMatching(/^Responsible gambling\s+2$/), expect.stringMatching(/^No consent\s+1$/)]);

    // No segments route yet (or none): no segments card.
    await expect(page.getByRole('heading', { name: 'Largest segments' }).count()).resolves.toBe(0);
    await screenshot(page, 'home');
    await checkPage(page, 'console-home-figures');

    await page.getByText('Show as a table').click();
    const day = page
      .getByRole('region', { name: 'New registrations, FTDs and deposits by day as a table (scrolls)' })
      .locator('tbody tr', { hasText: moneyDay });
    await expect(day.locator('td').allTextContents()).resolves.toEqual(['0', '2', '2']);
    await expect(
      page
        .getByRole('region', { name: /as a table/ })
        .locator('tbody tr')
        .count(),
    ).resolves.toBe(30);

    await page.getByLabel('Profile id, or its beginning').fill('player-2');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('heading', { name: 'Players', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'player-2', exact: true }).waitFor();
  });

  test('/console/home is the same page, and Home in the sidebar is marked current there', async () => {
    const page = await signedInPage(stack, browser, app, 'viewer', '/console/home');

    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await page.locator('#kpi-players .kpi-value').waitFor();
    await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Home' }).getAttribute('aria-current')).resolves.toBe('page');
  });
});
