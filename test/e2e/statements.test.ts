/**
 * Statements and payments in Chromium, as people meet them: an operator
 * approves a month on the affiliate's console page, adds an adjustment and
 * records the payment; the affiliate opens Payments in the portal, sees the
 * statement paid, saves payment details and opens the printable statement.
 * Each page passes checkPage (axe, no sideways scroll at 390 and 1366 px;
 * screenshots in .urm/screenshots/).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { affiliateReport } from '../../functions/back-office/affiliate-report';
import { assignPlan, setAffiliateStatus } from '../../functions/back-office/affiliates';
import { setMoneySettings } from '../../functions/back-office/money';
import { createPlan } from '../../functions/back-office/plans';
import { affiliateStatements } from '../../functions/back-office/statements';
import { commandLineActor } from '../../functions/domain/audit';
import { addMonths, monthOf } from '../../functions/domain/statements';
import { launchChromium } from '../support/chromium';
import { consoleApp, screenshot, signedInPage, type ConsoleApp } from '../support/console-browser';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { checkPage } from '../support/page-checks';
import { backdateAffiliate, registeredAffiliate } from '../support/portal';
import { until } from '../support/profiles';

let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;
let affiliate: Awaited<ReturnType<typeof registeredAffiliate>>;
const closed = addMonths(monthOf(new Date()), -1);

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Payments casino');
  await setMoneySettings(app.office, app.appId, commandLineActor, { currency: 'EUR', money_events: { Deposit: 'deposit' } });
  const plan = await createPlan(app.office, app.appId, commandLineActor, { name: 'CPA 50', cpa: { amount: '50', min_deposit: '20' } });
  affiliate = await registeredAffiliate(stack, app.appId, app.serverKey, { first_name: 'Zoë', last_name: 'Okafor' });
  await setAffiliateStatus(app.office, app.appId, commandLineActor, affiliate.affiliate_id, 'approved');
  // An affiliate of two months' standing, on the plan since last month began (a deal never starts before its affiliate).
  await backdateAffiliate(stack, app.appId, affiliate.affiliate_id, `${addMonths(closed, -1)}-01T00:00:00.000Z`);
  await assignPlan(app.office, app.appId, commandLineActor, affiliate.affiliate_id, plan.plan_id, `${closed}-01`);
  // A first deposit last month, through the API as the operator's site sends it.
  const player = `e2e-payments-${randomUUID()}`;
  const attributed = await request(stack.baseUrl, 'POST', '/api/set_affiliate', {
    key: app.serverKey,
    body: { app_id: app.appId, profile_id: player, urm_aff_id: affiliate.affiliate_id },
  });
  expect(attributed.status).toBe(200);
  const deposit = { app_id: app.appId, profile_id: player, event: 'Deposit', amount: 120, currency: 'EUR', urm_date_time: `${closed}-12T09:00:00.000Z` };
  expect((await request(stack.baseUrl, 'POST', '/events', { key: app.serverKey, body: [{ ...deposit, urm_insert_id: randomUUID() }] })).status).toBe(200);
  const statements = affiliateStatements({ ...app.office, report: affiliateReport(app.office) });
  await until(
    () => statements(app.appId, affiliate.affiliate_id),
    (list) => list.statements.some((s) => s.month === closed && s.cpa === '50.00'),
    'the deposit on last month’s statement',
    60_000,
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function portalPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${stack.baseUrl}/affiliates/${app.appId}/login`);
  await page.getByLabel('Username or email').fill(affiliate.username);
  await page.getByLabel('Password').fill(affiliate.password);
  await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in' }).click()]);
  return page;
}

describe('statements and payments in Chromium', () => {
  test('the operator approves last month, adds an adjustment and records the payment; the affiliate sees it paid and prints it', async () => {
    const page = await signedInPage(stack, browser, app, 'admin', `/console/affiliates/${affiliate.affiliate_id}`);
    await page.getByRole('heading', { name: 'Statements' }).waitFor();
    await page.getByRole('button', { name: `Approve ${closed}` }).click();
    await page.getByRole('status').getByText(`${closed} approved: 50.00 EUR due`).waitFor();

    await page.getByLabel('Amount').fill('12.50');
    await page.getByLabel('Reason').fill('Welcome bonus for the spring campaign');
    await page.getByRole('button', { name: 'Add adjustment' }).click();
    await page.getByRole('cell', { name: /Welcome bonus for the spring campaign/ }).waitFor();

    await page.getByLabel('Payment reference').fill('WIRE-2042');
    await page.getByRole('button', { name: 'Mark paid' }).click();
    await page.getByRole('status').getByText(`${closed} marked paid`).waitFor();
    await page.getByRole('cell', { name: /reference WIRE-2042/ }).waitFor();
    await screenshot(page, 'statements');
    await checkPage(page, 'console-statements');

    const portal = await portalPage();
    await portal.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Payments' }).click();
    await portal.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
    const row = portal.getByRole('row', { name: /WIRE-2042/ });
    await expect(row.getByRole('cell').first().textContent()).resolves.toBe('Paid');
    await expect(portal.locator('#current-deal').textContent()).resolves.toBe('Your deal: CPA €50.00 per first deposit of at least €20.00');

    await portal.getByLabel('Account holder').fill('Zoë Okafor');
    await portal.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00');
    await Promise.all([portal.waitForLoadState('load'), portal.getByRole('button', { name: 'Save payment details' }).click()]);
    await portal.getByRole('status').getByText('Payment details saved.').waitFor();
    await expect(portal.getByLabel('IBAN').inputValue()).resolves.toBe('DE89370400440532013000');
    await checkPage(portal, 'portal-payments');

    await Promise.all([portal.waitForLoadState('load'), row.getByRole('link').click()]);
    await portal.getByRole('heading', { name: /statement for/, level: 1 }).waitFor();
    await expect(portal.locator('#statement-status').textContent()).resolves.toBe('Paid');
    await checkPage(portal, 'portal-statement');
    await portal.emulateMedia({ media: 'print' });
    await portal.setViewportSize({ width: 794, height: 1123 });
    await portal.screenshot({ path: '.urm/screenshots/portal-statement-print.png', fullPage: true });
    expect(await portal.locator('header.bar').isVisible()).toBe(false);
    expect(await portal.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(1123);
  }, 180_000);
});
