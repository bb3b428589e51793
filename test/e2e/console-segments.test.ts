/**
 * Segments in Chromium, as a CRM manager makes one: a refused condition shows
 * its message by the field, the segment is made, listed, and its page reads
 * the condition in sentences, the backfill's progress, the members (arranged
 * in the table as the segment engine writes them) and the CSV link; it is
 * archived behind a confirmation. A viewer reads and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser } from 'playwright-core';
import { setMoneySettings } from '../../functions/back-office/money';
import { commandLineActor } from '../../functions/domain/audit';
import { definitionPk, memberPk, sizeSk } from '../../functions/domain/segments/model';
import { tables } from '../../functions/manifest/resources';
import { localClients } from '../../lib/local/stack';
import { launchChromium } from '../support/chromium';
import { consoleApp, signedInPage, type ConsoleApp } from '../support/console-browser';
import { request } from '../support/http';
import { waitFor } from '../support/local-process';
import { testStack, type TestStack } from '../support/local-stack';
import { checkPage } from '../support/page-checks';

let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;

const tooLong = '{\n  "all": [\n    {"events": {"name": "Deposit"}, "measure": "count", "op": "gte", "value": 2, "within_days": 400}\n  ]\n}';

/** A member as the segment engine writes it, and the segment's size. */
async function arrangeMember(segmentId: string, profileId: string) {
  const db = localClients(stack.endpoints).document;
  const TableName = tables.segments.localName;
  await db.send(new PutCommand({ TableName, Item: { pk: memberPk(app.appId, segmentId), sk: profileId, entered_at: '2026-11-21T10:00:00.000Z' } }));
  await db.send(new PutCommand({ TableName, Item: { pk: definitionPk(app.appId), sk: sizeSk(segmentId, 3), n: 1 } }));
}

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Segments casino');
  await setMoneySettings(app.office, app.appId, commandLineActor, { currency: 'EUR', money_events: { Deposit: 'deposit' } });
  const record = { app_id: app.appId, profile_id: 'player-7', urm_date_time: '2026-11-21T10:00:00Z' };
  expect(
    (await request(stack.baseUrl, 'POST', '/profiles', { key: app.serverKey, body: [{ ...record, name: 'Ada Lovelace', email: 'ada@casino.example' }] }))
      .status,
  ).toBe(200);
  expect(
    (await request(stack.baseUrl, 'POST', '/events', { key: app.serverKey, body: [{ ...record, event: 'Deposit', amount: 40, currency: 'EUR' }] })).status,
  ).toBe(200);
  // Applied (the profile) and counted (the ledger) before the page reads them.
  await waitFor(
    async () => (await request(stack.baseUrl, 'GET', `/profiles/player-7?app_id=${app.appId}`, { key: app.serverKey })).status === 200,
    'the profile to be applied',
    30_000,
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('segments in the console', () => {
  test('a marketer makes a segment: the refused condition first, then one that is listed, opened and archived', async () => {
    const page = await signedInPage(stack, browser, app, 'marketer', '/console/segments');
    await page.getByRole('heading', { name: 'Segments', level: 1 }).waitFor();
    await page.getByText(/^No segments yet/).waitFor();
    await checkPage(page, 'console-segments-empty');

    await page.getByRole('link', { name: 'New segment' }).click();
    await page.getByRole('heading', { name: 'New segment', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('Active depositors');
    await page.getByLabel('Condition').fill(tooLong);
    await page.getByRole('button', { name: 'Create segment' }).click();
    const conditionError = page.locator('#segment-condition-error');
    await conditionError.getByText('condition.all[0].within_days must be <= 365').waitFor();
    await expect(page.getByLabel('Condition').getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByText('What each kind means').click();
    await checkPage(page, 'console-segment-form');

    await page.getByLabel('Condition').fill('');
    await page.getByRole('button', { name: 'Event count' }).click();
    await page.getByRole('button', { name: 'Recency' }).click();
    await page.getByRole('button', { name: 'Create segment' }).click();

    await page.getByRole('heading', { name: 'Active depositors', level: 1 }).waitFor();
    expect(page.url()).toBe(`${stack.baseUrl}/console/segments/active-depositors`);
    const condition = page.getByRole('region', { name: 'Condition' });
    await condition.getByText('All of these').waitFor();
    await condition.getByText('Deposit at least 2 times in the last 30 days').waitFor();
    await condition.getByText('No Login in the last 7 days').waitFor();
    const backfill = page.getByRole('region', { name: 'Backfill' });
    await backfill.getByText(/usable when\s+done/).waitFor();
    await backfill.getByRole('progressbar', { name: 'Backfill progress' }).waitFor();
    await backfill.getByText('0 players evaluated').waitFor();
    await page.getByText('No members yet: players who match appear here as the backfill finds them.').waitFor();
    const csv = page.getByRole('link', { name: 'Download CSV' });
    await expect(csv.getAttribute('href')).resolves.toBe('/console/api/segments/active-depositors/members.csv');
    await checkPage(page, 'console-segment');

    await page.getByRole('link', { name: 'Segments', exact: true }).first().click();
    const row = page.locator('tbody tr', { hasText: 'Active depositors' });
    await row.waitFor();
    await row.getByText('backfilling').waitFor();
    await checkPage(page, 'console-segments');

    await row.getByRole('link', { name: 'Active depositors' }).click();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Active depositors', level: 1 }).waitFor();
    await page.getByLabel('Description (optional)').fill('Regulars who deposit and log in');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Active depositors', level: 1 }).waitFor();
    await page.getByText('Regulars who deposit and log in').waitFor();
    await page.getByText(/^Version 1, last changed /).waitFor();

    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Archive segment' }).click();
    await page.getByRole('heading', { name: 'Segments', level: 1 }).waitFor();
    await page.getByText(/^No segments yet/).waitFor();
    await page.context().close();
  }, 90_000);

  test("a member's name, email and money show in the preview, linking to the player; a viewer has no changes to make", async () => {
    const marketer = await signedInPage(stack, browser, app, 'marketer', '/console/segments/new');
    await marketer.getByLabel('Name').fill('Big spenders');
    await marketer.getByLabel('Condition').fill('{"lifecycle": "lifetime_deposits", "op": "gte", "value": "20"}');
    await marketer.getByRole('button', { name: 'Create segment' }).click();
    await marketer.getByRole('heading', { name: 'Big spenders', level: 1 }).waitFor();
    await marketer.getByText('Lifetime deposits are at least 20').waitFor();
    await marketer.context().close();
    await arrangeMember('big-spenders', 'player-7');

    const page = await signedInPage(stack, browser, app, 'viewer', '/console/segments/big-spenders');
    await page.getByRole('heading', { name: 'Big spenders', level: 1 }).waitFor();
    const members = page.getByRole('region', { name: 'Members' });
    const row = members.locator('tbody tr', { hasText: 'player-7' });
    await row.waitFor();
    await row.getByText('ada@casino.example').waitFor();
    await expect(row.getByRole('link', { name: 'Ada Lovelace' }).getAttribute('href')).resolves.toBe('/console/players/player-7');
    await expect(page.locator('#segment-size').textContent()).resolves.toMatch(/Members\s*1/);
    await expect(page.getByRole('button', { name: 'Archive' }).count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'Edit' }).count()).resolves.toBe(0);
    await checkPage(page, 'console-segment-members');

    await page.getByRole('link', { name: 'Segments', exact: true }).first().click();
    await page.locator('tbody tr', { hasText: 'Big spenders' }).waitFor();
    await expect(page.getByRole('link', { name: 'New segment' }).count()).resolves.toBe(0);
    await page.context().close();
  }, 90_000);
});
