/**
 * Affiliates in Chromium: as an admin, find a pending affiliate by status,
 * approve it, assign a plan and read its report (chart, the table by day,
 * the CSV link); as a viewer, no approve or plan controls, and forged POSTs
 * get 403 from the server.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { randomUUID } from 'node:crypto';
import { setMoneySettings } from '../../functions/back-office/money';
import { createPlan } from '../../functions/back-office/plans';
import { commandLineActor } from '../../functions/domain/audit';
import { registerAffiliate } from '../support/affiliates';
import { launchChromium } from '../support/chromium';
import { consoleApp, forgedPost, screenshot, signedInPage, type ConsoleApp } from '../support/console-browser';
import { request } from '../support/http';
import { checkPage } from '../support/page-checks';
import { seriesColors } from '../../functions/ui/design/tokens';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;
let affiliate: { id: string; username: string };

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Affiliate casino');
  await setMoneySettings(app.office, app.appId, commandLineActor, { currency: 'EUR', money_events: { Deposit: 'deposit' } });
  await createPlan(app.office, app.appId, commandLineActor, { name: 'CPA 50', cpa: { amount: '50', min_deposit: '20' } });
  affiliate = await registerAffiliate(stack.baseUrl, app);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('affiliates in the console, as an admin', () => {
  test('a plan is edited into version 2, its versions are listed, and archived after a confirm it offers no Edit and cannot be assigned', async () => {
    const name = `Hybrid ${randomUUID().slice(0, 6)}`;
    await createPlan(app.office, app.appId, commandLineActor, { name, cpa: { amount: '40' } });
    const page = await signedInPage(stack, browser, app, 'admin');
    await page.goto(`${stack.baseUrl}/console/affiliates`);
    const plans = page.getByRole('region', { name: 'Plans (scrolls)' });
    const row = plans.locator('tbody tr', { hasText: name });
    await row.getByText('v1').waitFor();

    await row.getByRole('button', { name: `Edit ${name}` }).click();
    const form = page.getByRole('form', { name: 'Edit plan' });
    await form.getByText('Saving makes version 2.', { exact: false }).waitFor();
    await expect(form.getByLabel('CPA per qualified first deposit').inputValue()).resolves.toBe('40.00');
    await form.getByLabel('RevShare, % of NGR').fill('25');
    await form.getByRole('button', { name: 'Save as new version' }).click();
    await page.getByRole('status').getByText(`Plan “${name}” is now version 2:`, { exact: false }).waitFor();
    await row.getByText('v2').waitFor();
    await page.getByRole('form', { name: 'New plan' }).waitFor();

    await row.getByRole('button', { name: `Versions of ${name}` }).click();
    const versions = page.getByRole('region', { name: `Versions of ${name}` });
    await versions.locator('li').nth(1).waitFor();
    const terms = ['CPA 40.00 (first deposit ≥ 0.00)', 'CPA 40.00 (first deposit ≥ 0.00) + RevShare 25 %'];
    await expect(versions.locator('li').allTextContents()).resolves.toEqual(terms.map((t, i) => expect.stringContaining(`v${i + 1} ${name}: ${t} (`)));
    await checkPage(page, 'console-plan-versions');

    await row.getByRole('button', { name: `Archive ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Archive “${name}”?` });
    await dialog.getByRole('button', { name: 'Cancel' }).and(page.locator(':focus')).waitFor();
    await dialog.getByRole('button', { name: 'Archive plan' }).click();
    await page.getByRole('status').getByText(`Plan “${name}” archived.`).waitFor();
    await row.getByText('archived').waitFor();
    await expect(row.getByRole('button', { name: `Edit ${name}` }).count()).resolves.toBe(0);
    await screenshot(page, 'plans-archived');

    await page.goto(`${stack.baseUrl}/console/affiliates/${affiliate.id}`);
    const choices = await page.getByLabel('Plan', { exact: true }).locator('option').allTextContents();
    expect(choices.some((choice) => choice.startsWith(name))).toBe(false);
    await page.context().close();
  }, 90_000);

  test('a pending affiliate is listed under its status, approved, given a plan, and its report shown', async () => {
    const page = await signedInPage(stack, browser, app, 'admin');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Affiliates' }).click();
    await page.getByRole('heading', { name: 'Affiliates', level: 1 }).waitFor();
    await page.getByLabel('Status').selectOption('pending');
    const row = page.locator('tbody tr', { hasText: affiliate.username });
    await row.waitFor();
    // The filter is in the address, as Home's "Affiliates awaiting approval" links to it.
    expect(page.url()).toBe(`${stack.baseUrl}/console/affiliates?status=pending`);
    await expect(row.locator('td').allTextContents()).resolves.toEqual([expect.any(String), expect.any(String), 'pending', 'none', expect.any(String)]);
    await screenshot(page, 'affiliates');
    await checkPage(page, 'console-affiliates');

    await row.getByRole('link', { name: affiliate.username }).click();
    await page.getByRole('heading', { name: affiliate.username, level: 1 }).waitFor();
    expect(page.url()).toBe(`${stack.baseUrl}/console/affiliates/${affiliate.id}`);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('status').getByText('Approved.').waitFor();
    await page.locator('dd .badge.tone-success', { hasText: 'approved' }).waitFor();

    await page.getByLabel('Plan', { exact: true }).selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Assign plan' }).click();
    await page.getByRole('status').getByText('Plan “CPA 50” assigned.').waitFor();
    await page.locator('dl dd', { hasText: 'CPA 50' }).waitFor();

    await page.getByRole('figure', { name: /^Clicks, registrations and FTDs by day: 30 days\. Totals: / }).waitFor();
    await page.locator('.chart-canvas canvas').first().waitFor();
    await page.getByRole('list', { name: 'Period totals' }).getByText('Commission').waitFor();
    await expect(page.locator('table.report tbody tr').count()).resolves.toBe(30);
    await expect(page.locator('table.report tfoot th').textContent()).resolves.toBe('Total');
    const csv = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(csv).toMatch(new RegExp(`^/console/api/affiliates/${affiliate.id}/report\\.csv\\?from=\\d{4}-\\d\\d-\\d\\d&to=\\d{4}-\\d\\d-\\d\\d$`));
    const download = await page.evaluate((href) => fetch(href).then(async (r) => ({ status: r.status, type: r.headers.get('content-type') })), csv!);
    expect(download).toEqual({ status: 200, type: 'text/csv; charset=utf-8' });
    await page.getByRole('heading', { name: 'Behind the commission' }).waitFor();
    // The chart's legend: swatches stay swatches, not the plot's width, each in its series' colour (the one uPlot draws it in).
    const swatch = await page.locator('.legend .swatch').first().boundingBox();
    expect(swatch!.width).toBeLessThan(24);
    const legend = await page
      .locator('.chart .legend li')
      .evaluateAll((items) => items.map((item) => [item.textContent, getComputedStyle(item.querySelector('.swatch')!).backgroundColor]));
    const rgb = (hex: string) => `rgb(${[1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)).join(', ')})`;
    expect(legend).toEqual([
      ['Clicks', rgb(seriesColors[0])],
      ['Registrations', rgb(seriesColors[1])],
      ['FTDs', rgb(seriesColors[2])],
    ]);

    // At a laptop's 1366 px the report by day fits its region: the Commission column is seen without scrolling.
    await page.setViewportSize({ width: 1366, height: 900 });
    const fit = await page.locator('table.report').evaluate((table) => {
      const region = table.closest('.table-wrap')!;
      const commission = [...table.querySelectorAll('thead th')].find((th) => th.textContent === 'Commission')!;
      return {
        commissionRight: commission.getBoundingClientRect().right,
        regionVisibleRight: region.getBoundingClientRect().left + region.clientLeft + region.clientWidth,
        scrollsSideways: region.scrollWidth > region.clientWidth,
      };
    });
    expect(fit.commissionRight).toBeLessThanOrEqual(fit.regionVisibleRight);
    expect(fit.scrollsSideways).toBe(false);
    await screenshot(page, 'affiliate');
    await checkPage(page, 'console-affiliate');
    await page.context().close();
  }, 90_000);
});

describe('affiliates in the console, as a viewer', () => {
  test('shows no approve, suspend or plan controls, and forged changes get 403', async () => {
    // A player of the approved affiliate (CPA 50) deposits: the report's cards, table and trace have something to show.
    const player = `player-${randomUUID()}`;
    const attributed = await request(stack.baseUrl, 'POST', '/api/set_affiliate', {
      key: app.serverKey,
      body: { app_id: app.appId, profile_id: player, urm_aff_id: affiliate.id },
    });
    expect(attributed.status).toBe(200);
    const deposit = await request(stack.baseUrl, 'POST', '/events', {
      key: app.serverKey,
      body: [{ app_id: app.appId, profile_id: player, event: 'Deposit', amount: 25, currency: 'EUR', urm_date_time: new Date().toISOString() }],
    });
    expect(deposit.body.FailedRecordCount).toBe(0);
    const page = await signedInPage(stack, browser, app, 'viewer', `/console/affiliates/${affiliate.id}`);
    await page.getByRole('heading', { name: affiliate.username, level: 1 }).waitFor();
    const kpis = page.getByRole('list', { name: 'Period totals' });
    for (
      let attempt = 0;
      attempt < 30 &&
      !(await kpis
        .getByText('50.00')
        .isVisible()
        .catch(() => false));
      attempt++
    ) {
      await page.waitForTimeout(1000);
      await page.reload();
      await page.getByRole('heading', { name: 'Report' }).waitFor();
      await kpis.waitFor();
    }
    await expect(kpis.locator('li', { hasText: 'Commission' }).locator('.kpi-value').textContent()).resolves.toBe('50.00 EUR');
    await expect(kpis.locator('li', { hasText: 'FTDs' }).first().locator('.kpi-value').textContent()).resolves.toBe('1');
    await expect(page.locator('table.report tfoot td').last().textContent()).resolves.toBe('50.00');
    await page.getByRole('heading', { name: 'First deposits (1)' }).waitFor();
    await page.getByRole('link', { name: player }).first().waitFor();

    for (const name of ['Approve', 'Suspend', 'Assign plan']) await expect(page.getByRole('button', { name }).count()).resolves.toBe(0);
    const forged = [
      await forgedPost(page, `/console/api/affiliates/${affiliate.id}/status`, { status: 'suspended' }),
      await forgedPost(page, `/console/api/affiliates/${affiliate.id}/plan`, { plan_id: 'plan_x' }),
    ];
    expect(forged).toEqual([
      { status: 403, body: { message: 'Forbidden' } },
      { status: 403, body: { message: 'Forbidden' } },
    ]);
    await page.locator('table.report tfoot').waitFor();
    await page.getByRole('heading', { name: 'Behind the commission' }).waitFor();
    await page.getByText('Off: no postbacks are sent.').waitFor();
    await screenshot(page, 'viewer-affiliate');
    await checkPage(page, 'console-affiliate-viewer');
    await page.goto(`${stack.baseUrl}/console/affiliates?status=approved`);
    await page.locator('tbody tr', { hasText: affiliate.username }).waitFor();
    await expect(page.getByLabel('Status').inputValue()).resolves.toBe('approved');
    await page.getByText('1 approved affiliate on this page').waitFor();
    await expect(page.getByRole('button', { name: 'Create plan' }).count()).resolves.toBe(0);
    await checkPage(page, 'console-affiliates-viewer');
    await page.context().close();
  }, 60_000);
});
