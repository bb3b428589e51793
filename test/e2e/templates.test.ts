/**
 * Templates in Chromium, as a CRM manager makes one: an email in two
 * languages, a refused part shown by its field, a preview for a real player
 * (the variant their language picks, and why), saved and listed, and a test
 * send that lands in the local mail store at the manager's own address. A
 * viewer reads it and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createChannel } from '../../functions/back-office/channels';
import { assignSender } from '../../functions/back-office/senders';
import { commandLineActor } from '../../functions/domain/audit';
import { launchChromium } from '../support/chromium';
import { consoleApp, signedInPage, type ConsoleApp } from '../support/console-browser';
import { request } from '../support/http';
import { waitFor } from '../support/local-process';
import { testStack, type TestStack } from '../support/local-stack';
import { sentMail } from '../support/mail';
import { checkPage, horizontalOverflow, screenshotDir } from '../support/page-checks';
import { until } from '../support/profiles';

let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;

const signedInEmail = (page: Page) =>
  page.evaluate(async () => ((await fetch('/console/api/session').then((r) => r.json())) as { user: { email: string } }).user.email);

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Templates casino');
  const fromEmail = `news@templates-${app.appId.slice(-8).toLowerCase()}.example`;
  await assignSender(app.office, commandLineActor, app.appId, { email: fromEmail });
  await createChannel(app.office, commandLineActor, { appId: app.appId, name: 'News', fromEmail, fromName: 'Casino News' });
  const record = { app_id: app.appId, profile_id: 'player-de', urm_date_time: '2026-11-21T10:00:00Z' };
  expect(
    (
      await request(stack.baseUrl, 'POST', '/profiles', {
        key: app.serverKey,
        body: [{ ...record, urm_set: { first_name: 'Jonas', urm_language: 'de-AT', email: 'jonas@player.example' } }],
      })
    ).status,
  ).toBe(200);
  await waitFor(
    async () => (await request(stack.baseUrl, 'GET', `/profiles/player-de?app_id=${app.appId}`, { key: app.serverKey })).status === 200,
    'the profile to be applied',
    30_000,
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('templates in the console', () => {
  test('a marketer writes an email in two languages, previews it for a player, saves it, sees it listed and sends a test to their own address', async () => {
    const page = await signedInPage(stack, browser, app, 'marketer', '/console/templates');
    await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    await page.getByText(/^No templates yet/).waitFor();
    await checkPage(page, 'console-templates-empty');

    await page.getByRole('link', { name: 'New template' }).click();
    await page.getByRole('heading', { name: 'New template', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('Welcome bonus');
    await expect(page.getByLabel('Id', { exact: true }).inputValue()).resolves.toBe('welcome-bonus');
    await page.getByLabel('Subject (en)').fill('Welcome {{ player.first_name | default: "there" }}');
    await page.getByLabel('HTML (en)').fill('<p>Your {{ event.amount }} EUR bonus is waiting at {{ app.name }}.</p>');
    await page.getByLabel('New language').fill('de');
    await page.getByRole('button', { name: 'Add language' }).click();
    await expect(page.getByRole('tab', { name: /^de/ }).getAttribute('aria-selected')).resolves.toBe('true');
    await page.getByLabel('Subject (de)').fill('Willkommen {{ player.first_name | shout }}');
    await page.getByLabel('HTML (de)').fill('<p>Dein Bonus von {{ event.amount }} EUR wartet.</p>');

    await page.getByRole('button', { name: 'Create template' }).click();
    await page.locator('#part-subject-error').getByText('unknown filter "shout"').waitFor();
    await expect(page.getByLabel('Subject (de)').getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByLabel('Subject (de)').fill('Willkommen {{ player.first_name }}');

    await page.getByLabel('Player (profile id)').fill('player-de');
    await page.getByLabel('Example event (JSON, optional)').fill('{"amount": 50}');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.locator('.preview-output');
    await preview.getByText('Willkommen Jonas').waitFor();
    await preview.getByText('urm_language de-AT has no variant; the broader de has one').waitFor();
    await preview.getByText('Dein Bonus von 50 EUR wartet.', { exact: true }).waitFor();
    // Live from now on: a change shows without pressing Preview again.
    await page.getByLabel('Subject (de)').fill('Hallo {{ player.first_name }}');
    await preview.getByText('Hallo Jonas').waitFor();
    await page.getByText('Variables and filters').click();
    await checkPage(page, 'console-template-editor');
    // The tablet and wide-screen layouts too: the preview beside the form only from 1200 px, nothing scrolls sideways.
    for (const width of [768, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(screenshotDir, `console-template-editor-${width}.png`), fullPage: true });
      expect({ width, overflow: await horizontalOverflow(page) }).toEqual({ width, overflow: 0 });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('heading', { name: 'Welcome bonus', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/templates/welcome-bonus');

    await page.getByLabel('Player (profile id)').fill('player-de');
    await page.getByRole('button', { name: 'Send test to me' }).click();
    const operator = await signedInEmail(page);
    await page.getByRole('status').getByText(`Test sent to ${operator}`).waitFor();
    const mail = await until(
      async () => (await sentMail(stack)).find((sent) => sent.subject === '[Test] Hallo Jonas' && sent.destination.to.some((to) => to.includes(operator))),
      (found) => found !== undefined,
      'the test mail in the local mail store',
    );
    expect(mail!.destination.to).toEqual([operator]);
    expect(mail!.body.html).toBe('<p>Dein Bonus von  EUR wartet.</p>');

    await checkPage(page, 'console-template');

    await page.getByRole('link', { name: 'Templates', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    const row = page.getByRole('row', { name: /Welcome bonus/ });
    await row.getByText('Email').waitFor();
    await row.getByText('de', { exact: true }).waitFor();
    await checkPage(page, 'console-templates');

    await row.getByRole('link', { name: 'Welcome bonus' }).click();
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Archive template' }).click();
    await page.getByText('This template is archived: restore it to change it.').waitFor();
    await page.getByRole('link', { name: 'Templates', exact: true }).first().click();
    await page.getByText(/^No templates yet/).waitFor();
    await page.getByLabel('Show archived templates').check();
    await page
      .getByRole('row', { name: /Welcome bonus/ })
      .getByText('archived')
      .waitFor();
    await page
      .getByRole('row', { name: /Welcome bonus/ })
      .getByRole('link', { name: 'Welcome bonus' })
      .click();
    await page.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('button', { name: 'Save changes' }).waitFor();
  });

  test('a viewer reads a template and previews it, but may not change or test-send it', async () => {
    const page = await signedInPage(stack, browser, app, 'viewer', '/console/templates/welcome-bonus');
    await page.getByRole('heading', { name: 'Welcome bonus', level: 1 }).waitFor();

    await expect(page.getByLabel('Subject (en)').isDisabled()).resolves.toBe(true);
    await page.locator('.preview-output').getByText('Welcome there').waitFor();
    await expect(page.getByRole('button', { name: 'Save changes' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Send test to me' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Archive' }).count()).resolves.toBe(0);
  });
});
