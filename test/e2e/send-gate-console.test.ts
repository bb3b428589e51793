/**
 * The send gate in the console, in Chromium: a self-excluded player's page
 * says, per channel, what the gate would answer to a marketing message now;
 * the Settings page's "Messaging rules" save caps, quiet hours and a topic,
 * and show them again after a reload.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { requireApp } from '../../functions/back-office/apps';
import { launchChromium } from '../support/chromium';
import { consoleApp, signedInPage, type ConsoleApp } from '../support/console-browser';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { checkPage } from '../support/page-checks';

let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;
const player = `excluded-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Gate casino');
  const profile = await request(stack.baseUrl, 'POST', '/profiles', {
    key: app.serverKey,
    body: [
      {
        app_id: app.appId,
        profile_id: player,
        urm_date_time: new Date().toISOString(),
        first_name: 'Sam',
        last_name: 'Excluded',
        email: 'sam@example.com',
        urm_consent_email: true,
        urm_rg_status: 'self_excluded',
        urm_rg_until: '2099-01-01T00:00:00Z',
      },
    ],
  });
  expect(profile.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('the send gate in the console', () => {
  test("a self-excluded player's page says that marketing email and push would be refused, and why", async () => {
    const page = await signedInPage(stack, browser, app, 'admin', `/console/players/${player}`);
    const heading = page.getByRole('heading', { name: 'Sam Excluded', level: 1 });
    // The profile is applied through the stream within seconds: read the page again until it is there (bounded).
    // Each load is given time to answer (the page's title is the id until the player arrives), then read again.
    for (let attempt = 0; attempt < 20; attempt++) {
      const shown = await heading.waitFor({ timeout: 3_000 }).then(
        () => true,
        () => false,
      );
      if (shown) break;
      await page.reload();
    }
    await heading.waitFor();

    const gate = page.getByRole('list', { name: 'Marketing now (the send gate)' });
    await expect(gate.getByRole('listitem').allTextContents()).resolves.toEqual([
      'Email: would be refused: self-excluded until 2099-01-01',
      'Push: would be refused: self-excluded until 2099-01-01',
    ]);
    await checkPage(page, 'console-player-gate');
  });

  test('the Messaging rules save caps, quiet hours and a topic, and show them after a reload', async () => {
    const page = await signedInPage(stack, browser, app, 'admin', '/console/settings');
    const rules = page.getByRole('form', { name: 'Messaging rules' });
    await rules.getByLabel('Email messages per local day').waitFor();

    await rules.getByLabel('Email messages per local day').fill('1');
    await rules.getByLabel('Email messages per week').fill('3');
    await rules.getByLabel('Quiet hours start').fill('22:00');
    await rules.getByLabel('Quiet hours end').fill('08:00');
    await rules.getByLabel('Default time zone').selectOption('Europe/Malta');
    await rules.getByRole('button', { name: 'Add topic' }).click();
    await rules.getByLabel('Topic 1 name').fill('promos');
    await rules.getByLabel('Topic 1 label').fill('Promotions and bonuses');
    await rules.getByRole('button', { name: 'Save messaging rules' }).click();
    await page.getByRole('status').getByText('Saved: the send gate applies these rules from now on.').waitFor();

    expect((await requireApp(app.office, app.appId)).messaging).toEqual({
      caps: { email: { daily: 1, weekly: 3 }, push: {} },
      quiet_hours: { start: '22:00', end: '08:00' },
      time_zone: 'Europe/Malta',
      topics: [{ name: 'promos', label: 'Promotions and bonuses' }],
      email_attribute: 'email',
      phone_attribute: 'phone',
    });
    await page.reload();
    await rules.getByLabel('Email messages per local day').waitFor();
    await expect(rules.getByLabel('Email messages per local day').inputValue()).resolves.toBe('1');
    await expect(rules.getByLabel('Quiet hours end').inputValue()).resolves.toBe('08:00');
    await expect(rules.getByLabel('Topic 1 label').inputValue()).resolves.toBe('Promotions and bonuses');
    await rules.scrollIntoViewIfNeeded();
    await checkPage(page, 'console-settings-messaging');
  });

  test('a daily cap above the weekly cap is refused with the reason', async () => {
    const page = await signedInPage(stack, browser, app, 'admin', '/console/settings');
    const rules = page.getByRole('form', { name: 'Messaging rules' });
    await rules.getByLabel('Push messages per local day').fill('5');
    await rules.getByLabel('Push messages per week').fill('2');
    await rules.getByRole('button', { name: 'Save messaging rules' }).click();

    await rules.getByRole('alert').getByText('the daily cap (5) must not be above the weekly cap (2)', { exact: false }).waitFor();
  });
});
