/**
 * The programme view and the affiliate report's layout in Chromium, as an affiliate manager uses them: the month's
 * affiliates from real events, sorted from the keyboard by a column, the CSV downloaded, the top lists; and an
 * affiliate's report with six-figure amounts showing every column at a laptop's 1366 px with nothing scrolling
 * sideways, its first column kept in view where a phone's 390 px scrolls the table.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { assignPlan, setAffiliateStatus } from '../../functions/back-office/affiliates';
import { setMoneySettings } from '../../functions/back-office/money';
import { createPlan } from '../../functions/back-office/plans';
import { commandLineActor } from '../../functions/domain/audit';
import { registerAffiliate } from '../support/affiliates';
import { launchChromium } from '../support/chromium';
import { consoleApp, screenshot, signedInPage, type ConsoleApp } from '../support/console-browser';
import { checkPage, horizontalOverflow } from '../support/page-checks';
import { until } from '../support/profiles';
import { attributedPlayer } from '../support/programme';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;
let whale: { id: string; username: string };
let steady: { id: string; username: string };
let idle: { id: string; username: string };

/** The programme as the page's own session reads it. */
const programmeOf = (page: Page) =>
  page.evaluate(() => fetch('/console/api/programme').then((r) => r.json() as Promise<{ totals: { ftds: number; commission: string } }>));

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Programme view casino');
  await setMoneySettings(app.office, app.appId, commandLineActor, { currency: 'EUR', money_events: { Deposit: 'deposit', Bet: 'bet', Win: 'win' } });
  const hybrid = await createPlan(app.office, app.appId, commandLineActor, {
    name: 'Hybrid 50 + 30 %',
    cpa: { amount: '50', min_deposit: '20' },
    revshare: { percent: '30' },
  });
  whale = await registerAffiliate(stack.baseUrl, app);
  steady = await registerAffiliate(stack.baseUrl, app);
  idle = await registerAffiliate(stack.baseUrl, app);
  for (const affiliate of [whale, steady]) {
    await setAffiliateStatus(app.office, app.appId, commandLineActor, affiliate.id, 'approved');
    await assignPlan(app.office, app.appId, commandLineActor, affiliate.id, hybrid.plan_id);
  }
  // Six-figure amounts: the widest figures a report's columns hold in practice.
  await attributedPlayer(stack.baseUrl, app, whale.id, [
    { event: 'Deposit', amount: 123456.78 },
    { event: 'Bet', amount: 987654.32 },
    { event: 'Win', amount: 12345.67 },
  ]);
  await attributedPlayer(stack.baseUrl, app, steady.id, [{ event: 'Deposit', amount: 25 }]);
  await attributedPlayer(stack.baseUrl, app, steady.id, [{ event: 'Deposit', amount: 30 }]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('the programme view', () => {
  test('lists every affiliate of the month, sorts by a column from the keyboard, and downloads the same as CSV', async () => {
    const page = await signedInPage(stack, browser, app, 'viewer');
    await until(
      () => programmeOf(page),
      (view) => view.totals.ftds === 3,
      'the three first deposits to be counted',
      60_000,
    );
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Affiliates' }).click();
    await page.getByRole('link', { name: 'Programme by month' }).click();
    await page.getByRole('heading', { name: 'Programme', level: 1 }).waitFor();
    const table = page.getByRole('region', { name: 'Affiliates by month (scrolls)' }).getByRole('table');
    const names = () => table.locator('tbody tr th').allTextContents();
    await table.locator('tbody tr').nth(2).waitFor();

    // Commission first, most first: the whale's RevShare on 975,308.65 of NGR leads.
    await expect(names()).resolves.toEqual([whale.username, steady.username, idle.username]);
    await expect(table.getByRole('columnheader', { name: /Commission/ }).getAttribute('aria-sort')).resolves.toBe('descending');
    await expect(table.locator('tfoot td').first().textContent()).resolves.toBe('Total');

    await table.getByRole('button', { name: /^FTDs/ }).focus();
    await page.keyboard.press('Enter');
    const ftds = table.getByRole('columnheader', { name: /^FTDs/ });
    await until(
      () => ftds.getAttribute('aria-sort'),
      (sort) => sort === 'descending' || sort === 'ascending',
      'the FTDs column to be sorted',
    );
    const order = (await ftds.getAttribute('aria-sort')) === 'descending' ? [steady, whale, idle] : [idle, whale, steady];
    await expect(names()).resolves.toEqual(order.map((a) => a.username));
    await expect(table.getByRole('columnheader', { name: /Commission/ }).getAttribute('aria-sort')).resolves.toBeNull();

    const commission = await table.getByRole('columnheader', { name: /Commission/ }).boundingBox();
    expect(commission!.x + commission!.width).toBeLessThanOrEqual(1366);
    expect(await horizontalOverflow(page)).toBe(0);

    await page.getByRole('heading', { name: 'Top affiliates' }).waitFor();
    await page.getByRole('heading', { name: 'By FTDs' }).waitFor();
    await page.getByRole('heading', { name: 'Top sub-ids' }).waitFor();

    const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(href).toMatch(/^\/console\/api\/programme\.csv\?month=\d{4}-\d\d$/);
    const csv = await page.evaluate(
      (path) => fetch(path).then(async (r) => ({ status: r.status, type: r.headers.get('content-type'), text: await r.text() })),
      href!,
    );
    const view = await programmeOf(page);
    expect([csv.status, csv.type]).toEqual([200, 'text/csv; charset=utf-8']);
    const lines = csv.text.trim().split('\r\n');
    expect(lines).toHaveLength(5);
    // 3 qualified FTDs × 50, and 30 % of 975,308.65 of NGR (292,592.595) to the cent.
    expect(lines.at(-1)).toMatch(/^total,\d{4}-\d\d,,,,,0,3,3,3,123511\.78,975308\.65,150\.00,292592\.60,292742\.60,EUR$/);
    expect(view.totals.commission).toBe('292742.60');

    await screenshot(page, 'programme');
    await checkPage(page, 'console-programme-view');
    await page.context().close();
  }, 120_000);
});

describe("an affiliate's report", () => {
  test('shows every column at 1366 px with nothing scrolling sideways, and keeps the day in view where a phone scrolls the table', async () => {
    const page = await signedInPage(stack, browser, app, 'viewer', `/console/affiliates/${whale.id}`);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByRole('heading', { name: whale.username, level: 1 }).waitFor();
    await page.locator('table.report tfoot').waitFor();
    await page.locator('table.report tfoot td', { hasText: '975,308.65' }).waitFor();

    const fit = await page.locator('table.report').evaluate((table) => {
      const region = table.closest('.table-wrap')!;
      const visibleRight = region.getBoundingClientRect().left + region.clientLeft + region.clientWidth;
      return {
        headers: [...table.querySelectorAll('thead th')].map((th) => ({ text: th.textContent, fits: th.getBoundingClientRect().right <= visibleRight })),
        regionScrolls: region.scrollWidth > region.clientWidth,
        viewport: window.innerWidth,
        commissionRight: [...table.querySelectorAll('thead th')].find((th) => th.textContent === 'Commission')!.getBoundingClientRect().right,
      };
    });
    expect(fit.headers.filter((header) => !header.fits)).toEqual([]);
    expect(fit.headers.map((header) => header.text)).toContain('Commission');
    expect(fit.regionScrolls).toBe(false);
    expect(fit.commissionRight).toBeLessThanOrEqual(fit.viewport);
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'affiliate-report-1366');

    await page.setViewportSize({ width: 390, height: 900 });
    expect(await horizontalOverflow(page)).toBe(0);
    const day = page.locator('table.report tbody tr th').first();
    await expect(day.evaluate((cell) => getComputedStyle(cell).position)).resolves.toBe('sticky');
    const region = page.locator('table.report').locator('xpath=ancestor::section[contains(@class, "table-wrap")]');
    await region.evaluate((element) => {
      element.scrollLeft = element.scrollWidth;
    });
    const [dayBox, regionBox] = [await day.boundingBox(), await region.boundingBox()];
    expect(dayBox!.x).toBeGreaterThanOrEqual(regionBox!.x);
    expect(dayBox!.x).toBeLessThan(regionBox!.x + 4);
    await screenshot(page, 'affiliate-report-390');
    await checkPage(page, 'console-affiliate-report');
    await page.context().close();
  }, 90_000);
});
