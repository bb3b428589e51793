/**
 * Broadcasts in Chromium, as a CRM manager runs one: the empty list, a new
 * broadcast whose unknown template is refused by the field, then a draft that
 * is started, seen sending (its progress moves on its own, at the slow rate
 * this application sets), paused, and cancelled behind a confirmation; the
 * list shows it with its status. A viewer reads it and changes nothing.
 * The template is arranged in the campaigns table as the template store
 * writes it; the segment's members as the segment engine does.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser } from 'playwright-core';
import { DynamoTemplateStore } from '../../functions/adapters/dynamo-template-store';
import { createChannel } from '../../functions/back-office/channels';
import { assignSender } from '../../functions/back-office/senders';
import { commandLineActor } from '../../functions/domain/audit';
import { definitionPk, memberPk, sizeSk } from '../../functions/domain/segments/model';
import { tables } from '../../functions/manifest/resources';
import { localClients } from '../../lib/local/stack';
import { launchChromium } from '../support/chromium';
import { consoleApp, signedInPage, type ConsoleApp } from '../support/console-browser';
import { consoleRequest, consoleSignIn } from '../support/console';
import { request } from '../support/http';
import { waitFor } from '../support/local-process';
import { testStack, type TestStack } from '../support/local-stack';
import { checkPage } from '../support/page-checks';
import { emailTemplate, storedTemplate } from '../support/templates';

let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;
const PLAYERS = 40;

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Broadcasts casino');
  // One a second: the page has time to show it sending, and to pause it.
  await app.office.apps.update(app.appId, { messaging: { broadcast_rate: 1 } });
  const fromEmail = `news@bc-${randomUUID().slice(0, 8)}.example`;
  await assignSender(app.office, commandLineActor, app.appId, { email: fromEmail });
  await createChannel(app.office, commandLineActor, { appId: app.appId, name: 'News', fromEmail, fromName: 'Casino News' });
  const db = localClients(stack.endpoints).document;
  const template = { ...emailTemplate({ en: { subject: 'The weekend reload', html: '<p>A reload waits.</p>' } }), id: 'weekend', name: 'Weekend reload' };
  await new DynamoTemplateStore(db, tables.campaigns.localName).create(storedTemplate(app.appId, template));

  const ids = Array.from({ length: PLAYERS }, (_, i) => `fan-${i}`);
  const at = new Date().toISOString();
  const body = ids.map((id) => ({ app_id: app.appId, profile_id: id, urm_date_time: at, email: `${id}@example.com`, urm_consent_email: true }));
  expect((await request(stack.baseUrl, 'POST', '/profiles', { key: app.serverKey, body })).status).toBe(200);
  const session = await consoleSignIn(stack.baseUrl, { appId: app.appId, serverKey: app.serverKey }, 'marketer');
  const segment = await consoleRequest(stack.baseUrl, session, 'POST', '/console/api/segments', {
    segment_id: 'weekend-fans',
    name: 'Weekend fans',
    condition: { attribute: 'urm_consent_email', op: 'equals', value: true },
  });
  expect(segment.status).toBe(201);
  const TableName = tables.segments.localName;
  for (const id of ids) await db.send(new PutCommand({ TableName, Item: { pk: memberPk(app.appId, 'weekend-fans'), sk: id, entered_at: at } }));
  await db.send(new PutCommand({ TableName, Item: { pk: definitionPk(app.appId), sk: sizeSk('weekend-fans', 0), n: PLAYERS } }));
  await waitFor(
    async () => (await request(stack.baseUrl, 'GET', `/profiles/fan-${PLAYERS - 1}?app_id=${app.appId}`, { key: app.serverKey })).status === 200,
    'the players applied',
    30_000,
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('broadcasts in the console', () => {
  test('a marketer creates a broadcast, starts it, sees it sending, pauses and cancels it', async () => {
    const page = await signedInPage(stack, browser, app, 'marketer', '/console/broadcasts');
    await page.getByRole('heading', { name: 'Broadcasts', level: 1 }).waitFor();
    await page.getByText(/^No broadcasts yet/).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Broadcasts' }).waitFor();

    await page.getByRole('link', { name: 'New broadcast' }).click();
    await page.getByRole('heading', { name: 'New broadcast', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('Weekend reload');
    await page.getByLabel('Template').fill('no-such-template');
    await page.getByLabel('Segment').selectOption('weekend-fans');
    await page.getByRole('button', { name: 'Create broadcast' }).click();
    await page.locator('#broadcast-template-error').getByText('template_id names no template of the application: no-such-template').waitFor();
    await expect(page.getByLabel('Template').getAttribute('aria-invalid')).resolves.toBe('true');
    await checkPage(page, 'console-broadcast-form');

    await page.getByLabel('Template').fill('weekend');
    await page.getByRole('button', { name: 'Create broadcast' }).click();
    await page.getByRole('heading', { name: 'Weekend reload', level: 1 }).waitFor();
    await page.getByText('A draft: nothing is sent until it is started.').waitFor();

    await page.getByRole('button', { name: 'Start' }).click();
    // It moves on its own: the page follows it.
    const progress = page.getByRole('status').filter({ hasText: /of 40/ });
    await progress.getByText(/^[1-9]\d* of 40$/).waitFor({ timeout: 30_000 });
    await page.getByText('Sending at the application’s broadcast rate.').waitFor();
    await checkPage(page, 'console-broadcast-running');

    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('Paused: nothing is sent until it is resumed.').waitFor();
    await page.getByRole('button', { name: 'Resume' }).waitFor();

    await page.getByRole('button', { name: 'Cancel broadcast' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Weekend reload?' });
    await dialog.getByRole('button', { name: 'Stop broadcast' }).click();
    await page.getByText('Cancelled: nothing more is sent.').waitFor();
    const sent = Number(((await page.locator('#broadcast-sent').textContent()) ?? '').match(/\d+/)?.[0]);
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(PLAYERS);
    await checkPage(page, 'console-broadcast-cancelled');

    await page.getByRole('link', { name: 'Broadcasts' }).first().click();
    const row = page.getByRole('row').filter({ hasText: 'Weekend reload' });
    await row.getByText('cancelled').waitFor();
    await checkPage(page, 'console-broadcasts');
  }, 120_000);

  test('a viewer reads a broadcast but has no buttons to change it', async () => {
    const page = await signedInPage(stack, browser, app, 'viewer', '/console/broadcasts');
    await page.getByRole('heading', { name: 'Broadcasts', level: 1 }).waitFor();
    await expect(page.getByRole('link', { name: 'New broadcast' }).count()).resolves.toBe(0);
    await page.getByRole('link', { name: 'Weekend reload' }).click();
    await page.getByRole('heading', { name: 'Weekend reload', level: 1 }).waitFor();
    await expect(page.getByRole('button', { name: /Start|Pause|Resume|Cancel broadcast/ }).count()).resolves.toBe(0);
  }, 60_000);
});
