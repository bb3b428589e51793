/**
 * A journey's results in Chromium, after activity seeded as the stream would
 * carry it (the events a journey's sends, SES and the player write, sent with
 * the server key): the headline rates, money against the holdout per 1,000
 * and the uplift, the chart by day, the figures by step, and what they mean.
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

const JOURNEY = 'first_deposit_welcome';
const campaign = { campaign: `journey:${JOURNEY}`, campaign_version: '1' };
const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();

async function ingest(path: '/profiles' | '/events', records: Record<string, unknown>[]) {
  const response = await request(stack.baseUrl, 'POST', path, { key: app.serverKey, body: records.map((r) => ({ app_id: app.appId, ...r })) });
  expect(response.body.FailedRecordCount).toBe(0);
}

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Results casino');
  await setMoneySettings(app.office, app.appId, commandLineActor, { currency: 'EUR', money_events: { Deposit: 'deposit', Bet: 'bet', Win: 'win' } });
  const event = (profileId: string, name: string, hoursAgo: number, fields: Record<string, unknown> = {}) => ({
    profile_id: profileId,
    event: name,
    urm_date_time: at(hoursAgo),
    ...fields,
  });
  const mail = { ...campaign, campaign_step: 'welcome_mail' };
  const recipients = ['ann', 'bob', 'cat', 'dan'];
  await ingest('/events', [
    ...recipients.map((p) => event(p, 'urm_journey_entered', 50, { ...campaign, journey_id: JOURNEY, journey_version: 1, entry_id: `${p}-1` })),
    ...recipients.map((p) => event(p, 'urm_email_sent', 49, { ...mail, channel: 'email' })),
    ...recipients.map((p) => event(p, 'urm_email_delivered', 49, mail)),
    event('ann', 'urm_email_opened', 30, mail),
    event('ann', 'urm_email_opened', 20, mail),
    event('bob', 'urm_email_opened', 20, mail),
    event('ann', 'urm_email_clicked', 20, { ...mail, link: 'https://casino.example/bonus' }),
    event('eve', 'urm_message_suppressed', 49, { ...mail, reason: 'rg_status', channel: 'email' }),
    event('hal', 'urm_campaign_holdout', 50, { ...campaign, campaign_step: 'split' }),
    event('ivy', 'urm_campaign_holdout', 50, { ...campaign, campaign_step: 'split' }),
  ]);
  // Money after the sends (each player's records in order on its shard).
  await ingest('/events', [
    event('ann', 'Deposit', 10, { amount: 100, currency: 'EUR' }),
    event('bob', 'Deposit', 10, { amount: 50.5, currency: 'EUR' }),
    event('ann', 'Bet', 9, { amount: 80, currency: 'EUR' }),
    event('ann', 'Win', 8, { amount: 30, currency: 'EUR' }),
    event('hal', 'Deposit', 10, { amount: 40, currency: 'EUR' }),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('a journey’s results', () => {
  test('show the rates, money against the holdout with the uplift, the chart by day and each step', async () => {
    const page = await signedInPage(stack, browser, app, 'marketer', `/console/results/journey/${JOURNEY}`);
    await page.getByRole('heading', { name: `Results: ${JOURNEY}`, level: 1 }).waitFor();

    // The consumer counts within seconds of the 200: the page is read again until it has.
    const deposits = page.getByRole('region', { name: 'Money within 7 days of the send' }).getByRole('row', { name: /^Deposits \(EUR\)/ });
    for (let attempt = 0; attempt < 40 && !(await deposits.textContent().catch(() => ''))?.includes('150.50'); attempt++) {
      await page.waitForTimeout(500);
      await page.reload();
      await page.getByRole('heading', { name: `Results: ${JOURNEY}`, level: 1 }).waitFor();
    }

    await expect(page.locator('#kpi-recipients .kpi-value').textContent()).resolves.toBe('4');
    await expect(page.locator('#kpi-delivered .kpi-value').textContent()).resolves.toBe('100%');
    await expect(page.locator('#kpi-opened .kpi-value').textContent()).resolves.toBe('50%');
    await expect(page.locator('#kpi-clicked .kpi-value').textContent()).resolves.toBe('25%');
    await expect(page.locator('#kpi-depositors .kpi-note').textContent()).resolves.toBe('holdout: 50%');
    const money = page.getByRole('region', { name: 'Money within 7 days of the send' });
    await expect(
      money
        .getByRole('row', { name: /^Deposits per 1,000/ })
        .getByRole('cell')
        .allTextContents(),
    ).resolves.toEqual(['37,625.00', '20,000.00', '17,625.00']);
    await expect(
      money
        .getByRole('row', { name: /^NGR \(EUR\)/ })
        .getByRole('cell')
        .allTextContents(),
    ).resolves.toEqual(['50.00', '0.00', '–']);

    const steps = page.getByRole('region', { name: 'Figures by step' });
    await expect(
      steps
        .getByRole('row', { name: /^Entry/ })
        .getByRole('cell')
        .first()
        .textContent(),
    ).resolves.toBe('4');
    await expect(
      steps
        .getByRole('row', { name: /^welcome_mail/ })
        .getByRole('cell')
        .allTextContents(),
    ).resolves.toEqual(expect.arrayContaining(['4', '3 (2)', '1 (1)']));
    await expect(page.getByRole('region', { name: 'Not sent, by reason' }).getByRole('listitem').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Responsible gambling\s+1$/),
    ]);
    await page.getByRole('heading', { name: 'What the figures mean' }).waitFor();
    await page.getByText('Apple Mail Privacy Protection', { exact: false }).waitFor();

    await screenshot(page, 'results');
    await checkPage(page, 'console-results');
  });

  test('an address that names no campaign says why', async () => {
    const page = await signedInPage(stack, browser, app, 'viewer', '/console/results/segment/x');

    await expect(page.getByRole('alert').textContent()).resolves.toContain('kind must be one of journey, broadcast');
  });
});
