/**
 * Journeys in Chromium, as a CRM manager makes one: "first deposit → welcome
 * email now → wait 2 days → if no second deposit, push", built step by step
 * in the form, published, listed, opened; a player's first deposit puts them
 * in it (the journeys consumer of the local stack), which their page shows,
 * and the journey page counts them at their step; then it is paused. A
 * viewer reads and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { DynamoJourneyStore } from '../../functions/adapters/dynamo-journey-store';
import { DynamoTemplateStore } from '../../functions/adapters/dynamo-template-store';
import { createJourney } from '../../functions/back-office/journeys';
import { setMoneySettings } from '../../functions/back-office/money';
import { commandLineActor } from '../../functions/domain/audit';
import { tables } from '../../functions/manifest/resources';
import { localClients } from '../../lib/local/stack';
import { launchChromium } from '../support/chromium';
import { consoleApp, signedInPage, type ConsoleApp } from '../support/console-browser';
import { request } from '../support/http';
import { waitFor } from '../support/local-process';
import { testStack, type TestStack } from '../support/local-stack';
import { checkPage } from '../support/page-checks';
import { welcomeJourney } from '../support/journeys';
import { emailTemplate, pushTemplate, storedTemplate } from '../support/templates';

let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Journeys casino');
  await setMoneySettings(app.office, app.appId, commandLineActor, { currency: 'EUR', money_events: { Deposit: 'deposit' } });
  // The two templates the journey sends, as the template store keeps them (the templates lane's CLI is not on this branch).
  const templates = new DynamoTemplateStore(localClients(stack.endpoints).document, tables.campaigns.localName);
  expect(await templates.create(storedTemplate(app.appId, emailTemplate({ en: { subject: 'Welcome!', html: '<p>Welcome</p>' } })))).toBe(true);
  expect(await templates.create(storedTemplate(app.appId, { ...pushTemplate(), id: 'come-back', name: 'Come back' }))).toBe(true);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** The card of step `n` (from 1) in the editor. */
const card = (page: Page, n: number) => page.locator('li.journey-card').nth(n - 1);

async function addStep(page: Page, label: string, name: string): Promise<number> {
  await page.getByRole('group', { name: 'Add a step' }).getByRole('button', { name: label, exact: true }).click();
  const n = await page.locator('li.journey-card').count();
  await card(page, n).getByLabel('Step name').fill(name);
  return n;
}

describe('journeys in the console', () => {
  test('a marketer builds the welcome journey in the form, publishes it, a first deposit puts a player in it, and it is paused', async () => {
    const page = await signedInPage(stack, browser, app, 'marketer', '/console/journeys');
    await page.getByRole('heading', { name: 'Journeys', level: 1 }).waitFor();
    await page.getByText(/^No journeys yet/).waitFor();

    await page.getByRole('link', { name: 'New journey' }).click();
    await page.getByRole('heading', { name: 'New journey', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Welcome series');
    await expect(page.getByLabel('On the first deposit').isChecked()).resolves.toBe(true);

    const welcome = await addStep(page, 'Send', 'welcome');
    await card(page, welcome).getByLabel('Template id').fill('welcome');
    const wait = await addStep(page, 'Wait', 'wait-2d');
    await card(page, wait).getByLabel('days').fill('2');
    const branch = await addStep(page, 'Branch', 'second-deposit');
    await card(page, branch).getByLabel('Condition', { exact: true }).fill('{"lifecycle": "deposit_count", "op": "gte", "value": 2}');
    await card(page, branch).getByText('Deposits made are at least 2').waitFor();
    const nudge = await addStep(page, 'Send', 'nudge');
    await card(page, nudge).getByLabel('Channel').selectOption('push');
    await card(page, nudge).getByLabel('Template id').fill('come-back');
    const exit = await addStep(page, 'Exit', 'done');
    // A step added after a send is where the send goes on to; the branch's two ways are picked by name.
    await expect(card(page, nudge).getByLabel('Then').inputValue()).resolves.toBe('done');
    await card(page, branch).getByLabel('If so, go to').selectOption('done');
    await card(page, branch).getByLabel('Else, go to').selectOption('nudge');
    expect(exit).toBe(5);
    await checkPage(page, 'console-journey-editor');

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('heading', { name: 'Welcome series', level: 1 }).waitFor();
    await page.locator('.journey-summary').getByText('Live').waitFor();
    const steps = page.getByRole('region', { name: 'Steps' });
    await steps.getByText('Send the email template “welcome” (marketing)').waitFor();
    await steps.getByText('Wait 2 days').waitFor();
    await expect(page.getByRole('link', { name: 'Results' }).getAttribute('href')).resolves.toBe('/results/journey/welcome-series');

    await page.getByRole('link', { name: 'Journeys', exact: true }).first().click();
    const row = page.getByRole('row', { name: /Welcome series/ });
    await row.getByText('Live').waitFor();
    await row.getByText('On the first deposit').waitFor();
    await checkPage(page, 'console-journeys');

    // A first deposit: the journeys consumer enters the player, sends the welcome (through the gate) and waits 2 days.
    const record = { app_id: app.appId, profile_id: 'player-9', urm_date_time: new Date().toISOString() };
    expect((await request(stack.baseUrl, 'POST', '/profiles', { key: app.serverKey, body: [{ ...record, name: 'Grace Hopper' }] })).status).toBe(200);
    expect(
      (await request(stack.baseUrl, 'POST', '/events', { key: app.serverKey, body: [{ ...record, event: 'Deposit', amount: 25, currency: 'EUR' }] })).status,
    ).toBe(200);
    await page.goto(`${stack.baseUrl}/console/players/player-9`);
    const journeys = page.getByRole('region', { name: 'Journeys' });
    await waitFor(
      async () => {
        await page.reload();
        await journeys
          .getByText(/Not in any journey yet|Welcome series/)
          .first()
          .waitFor();
        return (await journeys.getByRole('link', { name: 'Welcome series' }).count()) === 1;
      },
      "the player's journey on their page",
      30_000,
    );
    await journeys.getByText('In progress').waitFor();
    // Where the player is: the welcome send (retried while the application has no email channel) or the wait after it.
    await journeys
      .getByText(/^At /)
      .getByRole('link', { name: /^(welcome|wait-2d)$/ })
      .waitFor();
    await checkPage(page, 'console-player-journeys');

    await journeys.getByRole('link', { name: 'Welcome series' }).click();
    await page.getByRole('heading', { name: 'Welcome series', level: 1 }).waitFor();
    await page.locator('#journey-players-now').getByText('1', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Steps' }).getByText('1 player here now').waitFor();
    await checkPage(page, 'console-journey');
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.locator('.journey-summary').getByText('Paused').waitFor();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
  }, 180_000);

  test('a viewer reads the journeys but sees no button that changes them', async () => {
    const journeys = new DynamoJourneyStore(localClients(stack.endpoints).document, tables.campaigns.localName);
    await createJourney({ journeys, audit: app.office.audit })(app.appId, commandLineActor, { name: 'Win back', definition: welcomeJourney() });

    const page = await signedInPage(stack, browser, app, 'viewer', '/console/journeys');
    await page.getByRole('heading', { name: 'Journeys', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Win back' }).click();
    await page.getByRole('heading', { name: 'Win back', level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Steps' }).getByText('Wait 2 days').waitFor();

    await expect(page.getByRole('link', { name: 'New journey' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: /Pause|Resume|Archive|Publish/ }).count()).resolves.toBe(0);
  }, 60_000);
});
