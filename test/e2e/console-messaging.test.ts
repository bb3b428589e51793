/**
 * Messaging on a player's page in Chromium: as an admin, send player-42 an
 * email (it reaches the local mail store, and the player's timeline shows
 * it, naming the channel by its name) and see that a push to a player
 * without devices cannot be sent, and why; as a viewer, no send form, and a
 * forged send gets 403.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { createChannel } from '../../functions/back-office/channels';
import { assignSender } from '../../functions/back-office/senders';
import { commandLineActor } from '../../functions/domain/audit';
import { launchChromium } from '../support/chromium';
import { consoleApp, forgedPost, screenshot, signedInPage, type ConsoleApp } from '../support/console-browser';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { mailWithSubject } from '../support/mail';
import { checkPage } from '../support/page-checks';

const applied = { timeout: 15_000 };
let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;
/** The channel's sender, assigned to this application only. */
const sender = `news@casino-${randomUUID().slice(0, 8)}.example`;

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Messaging casino');
  await assignSender(app.office, commandLineActor, app.appId, { email: sender });
  await createChannel(app.office, commandLineActor, { appId: app.appId, name: 'News', fromEmail: sender, fromName: 'Casino News' });
  const profile = await request(stack.baseUrl, 'POST', '/profiles', {
    key: app.serverKey,
    body: [
      { app_id: app.appId, profile_id: 'player-42', urm_date_time: '2026-11-21T10:00:00Z', email: 'ann@example.com', name: 'Ann Lee', urm_consent_email: true },
      {
        app_id: app.appId,
        profile_id: 'player-9',
        urm_date_time: '2026-11-21T10:00:00Z',
        email: 'bob@example.com',
        name: 'Bob Stone',
        urm_consent_email: true,
        urm_rg_status: 'self_excluded',
        urm_rg_until: '2027-01-01T00:00:00Z',
      },
      {
        app_id: app.appId,
        profile_id: 'player-vip',
        urm_date_time: '2026-11-21T10:00:00Z',
        email: 'cy@example.com',
        name: 'Cy Grech',
        urm_consent_email: true,
        urm_unsubscribed_topics: ['vip'],
      },
    ],
  });
  expect(profile.status).toBe(200);
  await app.office.apps.update(app.appId, { messaging: { topics: [{ name: 'vip', label: 'VIP events' }] } });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function openPlayer42(page: Awaited<ReturnType<typeof signedInPage>>, profileId = 'player-42') {
  // The profile is applied by the stream within seconds: reload until the page shows it (its Attributes section)
  // rather than the not-found alert. The heading is the player's name once known, so it cannot tell them apart.
  const attributes = page.getByRole('heading', { name: 'Attributes', level: 2 });
  const shown = attributes.or(page.getByRole('alert'));
  for (let attempt = 0; attempt < 15; attempt++) {
    await page.goto(`${stack.baseUrl}/console/players/${encodeURIComponent(profileId)}`);
    await shown.first().waitFor();
    if (await attributes.isVisible()) return;
    await page.waitForTimeout(1000);
  }
  throw new Error(`the console never showed ${profileId}`);
}

describe('messaging a player from the console, as an admin', () => {
  test('an email sent from the player page reaches the mail store and shows on the timeline by its channel name; a push without devices is disabled, saying why', async () => {
    const page = await signedInPage(stack, browser, app, 'admin');
    await openPlayer42(page);
    const subject = `Your bonus ${randomUUID().slice(0, 8)}`;

    await page.getByLabel('Channel').selectOption({ label: `News — Casino News <${sender}>` });
    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Text').fill('Hello Ann, a bonus awaits.');
    await page.getByRole('button', { name: 'Send email' }).click();

    await page
      .getByRole('status')
      .getByText(/^Email sent \(message /)
      .waitFor(applied);
    const mails = await mailWithSubject(stack, subject);
    // A marketing mail (the default): the text, then the address to leave by.
    expect(mails.map((mail) => [mail.destination.to, mail.body.text?.trim()])).toEqual([
      [
        [expect.stringContaining('ann@example.com')],
        expect.stringMatching(/^Hello Ann, a bonus awaits\.\n\n--\nUnsubscribe: http:\/\/127\.0\.0\.1:\d+\/unsubscribe\/\S+$/),
      ],
    ]);
    // The timeline names the channel as the admin named it, not by its id.
    await page.locator('table.timeline').getByText(`Email sent: “${subject}” through News`, { exact: true }).waitFor(applied);
    await screenshot(page, 'player-email-sent');

    // No web push device: Send push is disabled, and the reason is shown and describes the button.
    const sendPush = page.getByRole('button', { name: 'Send push' });
    await expect(sendPush.isDisabled()).resolves.toBe(true);
    await expect(page.getByLabel('Title').count()).resolves.toBe(0);
    const reason = await sendPush.getAttribute('aria-describedby');
    await expect(page.locator(`#${reason}`).textContent()).resolves.toMatch(/the player has no web push device/);
    await expect(page.locator(`#${reason}`).isVisible()).resolves.toBe(true);
    await screenshot(page, 'player-push-refused');
    await checkPage(page, 'console-player-messaging');
    await page.context().close();
  });
});

describe('the send gate on the player page', () => {
  test('a marketing email to a self-excluded player is not sent, and says why; as an account message, with a reason, it is sent', async () => {
    const page = await signedInPage(stack, browser, app, 'marketer');
    await openPlayer42(page, 'player-9');
    const subject = `Free spins ${randomUUID().slice(0, 8)}`;

    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Text').fill('Ten free spins await.');
    await page.getByRole('button', { name: 'Send email' }).click();

    await page.getByRole('alert').getByText('Not sent: self-excluded until 2027-01-01.').waitFor(applied);
    expect(await mailWithSubject(stack, subject)).toEqual([]);
    await screenshot(page, 'player-email-not-sent');

    await page.getByRole('radio', { name: 'Transactional (account message)' }).check();
    await page.getByLabel('Reason').fill('They asked for a password reset');
    await page.getByRole('button', { name: 'Send email' }).click();

    await page
      .getByRole('status')
      .getByText(/^Email sent \(message /)
      .waitFor(applied);
    expect(await mailWithSubject(stack, subject)).toHaveLength(1);
    await expect(page.getByRole('radio', { name: 'Marketing' }).isChecked()).resolves.toBe(true);
    await checkPage(page, 'console-player-send-gate');
    await page.context().close();
  });
});

describe('a topic on the send form', () => {
  test('a marketing email about a topic the player left is not sent, and says so', async () => {
    const page = await signedInPage(stack, browser, app, 'marketer');
    await openPlayer42(page, 'player-vip');
    const subject = `VIP night ${randomUUID().slice(0, 8)}`;

    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Text').fill('You are invited.');
    await page.locator('#email-topic').selectOption({ label: 'VIP events' });
    await page.getByRole('button', { name: 'Send email' }).click();

    await page.getByRole('alert').getByText('Not sent: unsubscribed from vip.').waitFor(applied);
    expect(await mailWithSubject(stack, subject)).toEqual([]);
    await checkPage(page, 'console-player-send-topic');
    await page.context().close();
  });
});

describe('messaging a player from the console, as a viewer', () => {
  test('shows no send forms, and a forged send from the page gets 403', async () => {
    const page = await signedInPage(stack, browser, app, 'viewer');
    await openPlayer42(page);

    await expect(page.getByRole('button', { name: 'Send email' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Send push' }).count()).resolves.toBe(0);
    const forged = await forgedPost(page, '/console/api/players/player-42/email', { channel_id: 'x', subject: 'Hi', text_body: 'Hi' });
    expect(forged).toEqual({ status: 403, body: { message: 'Forbidden' } });
    await screenshot(page, 'viewer-player-messaging');
    await page.context().close();
  });
});
