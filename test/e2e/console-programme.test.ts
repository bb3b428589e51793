/**
 * What the command line alone did, now in Chromium: as a marketer, create a plan on the Affiliates page, a tracking
 * link and the postback URL on an affiliate's page (the signing secret shown once, then postbacks turned off), and
 * find a rejected record on the Rejections page, linking to its player; as a viewer, none of those controls, and
 * forged POSTs get 403 from the server.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { updateApp } from '../../functions/back-office/apps';
import { commandLineActor } from '../../functions/domain/audit';
import { registerAffiliate } from '../support/affiliates';
import { launchChromium } from '../support/chromium';
import { consoleApp, forgedPost, screenshot, signedInPage, type ConsoleApp } from '../support/console-browser';
import { request } from '../support/http';
import { checkPage } from '../support/page-checks';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;
let affiliate: { id: string; username: string };

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Programme casino');
  await updateApp(app.office, app.appId, commandLineActor, { siteOrigins: [stack.baseUrl] });
  affiliate = await registerAffiliate(stack.baseUrl, app);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('the affiliate programme in the console, as a marketer', () => {
  test('a new plan is created on the Affiliates page and listed with its terms', async () => {
    const page = await signedInPage(stack, browser, app, 'marketer', '/console/affiliates');
    await page.getByRole('heading', { name: 'Plans' }).waitFor();
    await page.getByText('No plans yet').waitFor();

    await page.getByLabel('Name').fill('Spring hybrid');
    await page.getByLabel('CPA per qualified first deposit').fill('40');
    await page.getByLabel('Smallest qualifying first deposit').fill('10');
    await page.getByLabel('RevShare, % of NGR').fill('20');
    await page.getByRole('button', { name: 'Create plan' }).click();

    await page
      .getByRole('status')
      .getByText(/^Plan “Spring hybrid” created: /)
      .waitFor();
    const row = page.locator('tbody tr', { hasText: 'Spring hybrid' });
    await row.waitFor();
    await expect(row.locator('td').first().textContent()).resolves.toMatch(/CPA 40\.00 .*RevShare 20 %/);
    await page.getByLabel('Name').fill('Nothing');
    await page.getByRole('button', { name: 'Create plan' }).click();
    await page
      .getByRole('alert')
      .getByText(/a plan needs cpa, revshare or both/)
      .waitFor();
    await screenshot(page, 'plans');
    await checkPage(page, 'console-affiliates-plans');
    await page.context().close();
  }, 60_000);

  test("a tracking link and the postback URL are set on the affiliate's page; the secret is shown once", async () => {
    const page = await signedInPage(stack, browser, app, 'marketer', `/console/affiliates/${affiliate.id}`);
    await page.getByRole('heading', { name: affiliate.username, level: 1 }).waitFor();

    await page.getByLabel('Name').fill('Autumn banner');
    await page.getByLabel('Landing URL').fill(`${stack.baseUrl}/welcome`);
    await page.getByRole('button', { name: 'Create link' }).click();
    await page
      .getByRole('status')
      .getByText(/^Link “Autumn banner” created: http/)
      .waitFor();
    await page.locator('tr', { hasText: 'Autumn banner' }).locator('code', { hasText: '/t/' }).waitFor();

    await page.getByText('Off: no postbacks are sent.').waitFor();
    await page.getByLabel('Postback URL', { exact: true }).fill('https://tracker.example/pb?e={event}&id={event_id}');
    await page.getByRole('button', { name: 'Save URL' }).click();
    await page.getByText('Signing secret: copy it now').waitFor();
    await expect(page.locator('.shown-once code.secret').textContent()).resolves.toMatch(/^\S{20,}$/);
    await page.getByText(/^On: each registration and first deposit/).waitFor();
    await expect(page.locator('p', { hasText: /^On:/ }).locator('code').textContent()).resolves.toBe('tracker.example');
    await screenshot(page, 'affiliate-programme');
    await checkPage(page, 'console-affiliate-programme');

    await page.getByRole('button', { name: 'Turn postbacks off' }).click();
    await page.getByRole('status').getByText('Postbacks are off.').waitFor();
    await page.getByText('Off: no postbacks are sent.').waitFor();
    await expect(page.getByText('Signing secret: copy it now').count()).resolves.toBe(0);
    await page.context().close();
  }, 60_000);

  test('a record the service rejected is on the Rejections page with its reason, and leads to its player', async () => {
    const profileId = `rejected-${Date.now()}`;
    const records = [
      { app_id: app.appId, profile_id: profileId, urm_date_time: '2026-11-21T10:00:00Z', nickname: 'ace' },
      { app_id: app.appId, profile_id: profileId, urm_date_time: '2026-11-21T10:00:01Z', urm_insert_id: `bad-${profileId}`, urm_add: { nickname: 1 } },
    ];
    expect((await request(stack.baseUrl, 'POST', '/profiles', { key: app.serverKey, body: records })).status).toBe(200);
    const page = await signedInPage(stack, browser, app, 'marketer');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Rejections' }).click();
    await page.getByRole('heading', { name: 'Rejections', level: 1 }).waitFor();

    // The consumer rejects it within seconds of the 200: the page is read again until it is listed.
    const row = page.locator('tbody tr', { hasText: profileId });
    for (let attempt = 0; attempt < 30 && (await row.count()) === 0; attempt++) {
      await page.waitForTimeout(500);
      await page.reload();
      await page.getByRole('heading', { name: 'Rejections', level: 1 }).waitFor();
      await page.locator('main p:not([aria-busy])').first().waitFor();
    }
    await expect(row.locator('td').last().textContent()).resolves.toMatch(/urm_add needs a number, but nickname is a string/);
    await row.locator('summary').click();
    await expect(row.locator('pre').textContent()).resolves.toContain('"urm_add"');
    await screenshot(page, 'rejections');

    await row.getByRole('link', { name: profileId }).click();
    await page.getByRole('heading', { name: profileId, level: 1 }).waitFor();
    await page.context().close();
  }, 60_000);
});

describe('the affiliate programme in the console, as a viewer', () => {
  test('no plan, link or postback controls, and forged changes get 403 from the server', async () => {
    const page = await signedInPage(stack, browser, app, 'viewer', `/console/affiliates/${affiliate.id}`);
    await page.getByRole('heading', { name: affiliate.username, level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Postbacks' }).waitFor();
    await page.getByText('Off: no postbacks are sent.').waitFor();
    await page.locator('table.report tfoot').waitFor();
    await checkPage(page, 'console-affiliate-programme-viewer');

    for (const name of ['Create link', 'Save URL', 'Turn postbacks off']) await expect(page.getByRole('button', { name }).count()).resolves.toBe(0);
    const forged = [
      await forgedPost(page, '/console/api/plans', { name: 'Forged', cpa: { amount: '1' } }),
      await forgedPost(page, `/console/api/affiliates/${affiliate.id}/links`, { name: 'Forged', landing_url: `${stack.baseUrl}/` }),
      await forgedPost(page, `/console/api/affiliates/${affiliate.id}/postbacks`, { action: 'rotate_secret' }),
    ];
    expect(forged.map((answer) => answer.status)).toEqual([403, 403, 403]);
    await page.goto(`${stack.baseUrl}/console/affiliates`);
    await page.getByRole('heading', { name: 'Plans' }).waitFor();
    await expect(page.getByRole('button', { name: 'Create plan' }).count()).resolves.toBe(0);
    await page.locator('tbody tr', { hasText: affiliate.username }).waitFor();
    await checkPage(page, 'console-affiliates-plans-viewer');
    await page.context().close();
  }, 60_000);
});
