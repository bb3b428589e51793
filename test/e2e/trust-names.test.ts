/**
 * A player's page in headless Chromium with events named like
 * Object.prototype's properties (issue 25, item 6): `__proto__`,
 * `constructor`, `toString`, `hasOwnProperty` and `valueOf` are an
 * integrator's events like any other, each row showing its name and its
 * attributes. Screenshot: .urm/screenshots/console-player-prototype-names.png.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { checkPage } from '../support/page-checks';
import { consoleApp, screenshot, signedInPage, type ConsoleApp } from '../support/console-browser';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';

const prototypeNames = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
const profileId = `player-${randomUUID().slice(0, 8)}`;

let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Names');
  const ingest = (path: '/profiles' | '/events', records: Record<string, unknown>[]) =>
    request(stack.baseUrl, 'POST', path, {
      key: app.serverKey,
      body: records.map((record) => ({ app_id: app.appId, profile_id: profileId, urm_date_time: '2026-11-21T10:00:00Z', ...record })),
    });
  expect((await ingest('/profiles', [{ country: 'MT' }])).status).toBe(200);
  expect(
    (
      await ingest(
        '/events',
        prototypeNames.map((event, seat) => ({ event, seat })),
      )
    ).status,
  ).toBe(200);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

test('the timeline shows each event named like a prototype property with its name and attributes, and no error', async () => {
  const page = await signedInPage(stack, browser, app, 'admin', `/console/players/${profileId}`);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const rows = page.locator('table.timeline tbody tr');

  // The stream applies within about a second; the page reads the timeline again until all five are there.
  for (let attempt = 0; attempt < 15 && (await rows.count()) < prototypeNames.length; attempt++) {
    await page.waitForTimeout(1000);
    await page.reload();
    await page.getByRole('heading', { name: profileId, level: 1 }).waitFor();
  }
  await rows.nth(prototypeNames.length - 1).waitFor();

  const shown = await rows.evaluateAll((trs) => trs.map((tr) => [tr.querySelector('code')?.textContent, tr.querySelector('ul.details')?.textContent]));
  expect(shown.sort(([a], [b]) => String(a).localeCompare(String(b)))).toEqual(
    prototypeNames.map((name, seat) => [name, `seat: ${seat}`]).sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
  expect(errors).toEqual([]);
  await screenshot(page, 'player-prototype-names');
  await checkPage(page, 'console-player-prototype-names');
  await page.context().close();
});
