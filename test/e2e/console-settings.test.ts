/**
 * The Settings page in Chromium: as an admin, create a server key (shown
 * once, and it works against POST /events), revoke it with a confirm (then
 * it stops working), and create an email channel with a sender the operator
 * assigned (another is refused beside the field); edit the money-event
 * mapping row by row (a refused row shows the server's message beside it);
 * generate VAPID keys (a missing subject said beside its field) and rotate
 * them and the identity secret after a confirm;
 * choose the default plan of new affiliates (one registered through the API
 * then has it); as a viewer, no Settings in the nav, the page shows the
 * server's 403, and forged POSTs get 403.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { createPlan } from '../../functions/back-office/plans';
import { assignSender } from '../../functions/back-office/senders';
import { commandLineActor } from '../../functions/domain/audit';
import { registerAffiliate } from '../support/affiliates';
import { launchChromium } from '../support/chromium';
import { consoleApp, forgedPost, screenshot, signedInPage, type ConsoleApp } from '../support/console-browser';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { checkPage } from '../support/page-checks';

let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;
/** The sender the operator assigned to this application. */
const sender = `news@casino-${randomUUID().slice(0, 8)}.example`;

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Settings casino');
  await assignSender(app.office, commandLineActor, app.appId, { email: sender });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const postEvent = (key: string) =>
  request(stack.baseUrl, 'POST', '/events', {
    key,
    body: [{ app_id: app.appId, profile_id: 'player-1', event: 'login', urm_date_time: '2026-11-21T10:00:00Z' }],
  });

describe('the Settings page, as an admin', () => {
  test('a new key is shown once and works against POST /events; revoked after a confirm, it stops working', async () => {
    const page = await signedInPage(stack, browser, app, 'admin');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.locator('section[aria-labelledby="card-api-keys"] tbody tr').first().waitFor();
    await page.getByLabel('Main currency').waitFor();
    await checkPage(page, 'console-settings');

    await page.getByLabel('Scope of a new key').selectOption('server');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.locator('.shown-once code.secret');
    await shown.waitFor();
    const key = (await shown.textContent())!;
    const keyId = (await page.locator('.shown-once header strong').textContent())!.replace(/^New key (\S+):.*$/, '$1');
    expect((await postEvent(key)).status).toBe(200);
    await screenshot(page, 'settings-key-created');

    await page.reload();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await expect(page.getByText(key).count()).resolves.toBe(0);
    await page.getByRole('button', { name: `Revoke ${keyId}` }).click();
    // The confirmation is a modal dialog whose safe choice has the focus.
    await page
      .getByRole('dialog', { name: `Revoke ${keyId}?` })
      .getByRole('button', { name: 'Cancel' })
      .and(page.locator(':focus'))
      .waitFor();
    await checkPage(page, 'console-settings-revoke');
    await page.getByRole('button', { name: `Yes, revoke ${keyId}` }).click();
    await page.getByRole('status').getByText(`Key ${keyId} revoked`).waitFor();
    await page.locator('tbody tr', { hasText: keyId }).getByText('revoked').waitFor();
    // The functions cache keys for 30 seconds: wait (bounded) until the key is refused.
    let status = 200;
    for (let attempt = 0; attempt < 40 && status === 200; attempt++) {
      status = (await postEvent(key)).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(status).toBe(403);

    await page.getByText(`Senders the operator assigned to this application: ${sender}.`).waitFor();
    await page.getByLabel('Channel name').fill('News');
    await page.getByLabel('From email').fill('news@example.com');
    await page.getByLabel('From name').fill('Casino News');
    await page.getByRole('button', { name: 'Create channel' }).click();
    await page.locator('#from-email-error').getByText('from_email must be a sender assigned to the application').waitFor();
    await expect(page.getByLabel('From email').getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, 'settings-sender-refused');
    await page.getByLabel('From email').fill(sender);
    await page.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('status').getByText('Channel “News” created.').waitFor();
    await page.locator('tbody tr', { hasText: 'Casino News' }).getByText('enabled').waitFor();
    await screenshot(page, 'settings');
    await checkPage(page, 'console-settings-channel');
    await page.context().close();
  }, 90_000);

  test('the searchable attributes are saved in their own card and read back after a reload; six are refused under the field', async () => {
    const page = await signedInPage(stack, browser, app, 'admin');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
    const field = page.getByLabel('Searchable attributes');
    await expect(field.inputValue()).resolves.toBe('email, first_name, last_name, phone');

    await field.fill('a, b, c, d, e, f');
    await page.getByRole('button', { name: 'Save searchable attributes' }).click();
    await page.locator('section[aria-labelledby="card-player-search-setting"]').getByText('search_attributes must hold at most 5 items').first().waitFor();
    await checkPage(page, 'console-settings-search');
    await field.fill('email, nickname');
    await page.getByRole('button', { name: 'Save searchable attributes' }).click();
    await page.getByRole('status').getByText('Saved: players applied from now on are found by these attributes.').waitFor();
    await page.reload();

    await expect(page.getByLabel('Searchable attributes').inputValue()).resolves.toBe('email, nickname');
    await page.context().close();
  });

  test('the minimum payout is saved and read back after a reload; a negative one is refused under the field', async () => {
    const page = await signedInPage(stack, browser, app, 'admin', '/console/settings');
    const payouts = page.getByRole('form', { name: 'Affiliate payouts' });
    const field = payouts.getByLabel('Minimum payout');
    await expect(field.inputValue()).resolves.toBe('0.00');

    await field.fill('-5');
    await payouts.getByRole('button', { name: 'Save minimum payout' }).click();
    await page.locator('#min-payout-error').getByText('min_payout must be a decimal from 0 with at most 2 places').waitFor();
    await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
    await checkPage(page, 'console-settings-payouts');
    await field.fill('150');
    await payouts.getByRole('button', { name: 'Save minimum payout' }).click();
    await page.getByRole('status').getByText('Saved: the minimum payout is 150.00; open statements use it now.').waitFor();
    await page.reload();

    await expect(page.getByRole('form', { name: 'Affiliate payouts' }).getByLabel('Minimum payout').inputValue()).resolves.toBe('150.00');
    const read = await page.evaluate(async () => (await fetch('/console/api/payout-settings')).json());
    expect(read).toEqual({ min_payout: '150.00' });
    await page.context().close();
  });

  test('the money mapping is edited row by row: two rows added, one removed, saved and read back after a reload', async () => {
    const page = await signedInPage(stack, browser, app, 'admin', '/console/settings');
    const money = page.getByRole('form', { name: 'Money events' });
    await money.getByLabel('Main currency').waitFor();
    await money.getByText('No money events').waitFor();

    await money.getByLabel('Main currency').fill('USD');
    await money.getByRole('button', { name: 'Add event' }).click();
    // The new row's name takes the focus: typing fills it.
    await money.getByLabel('Event name 1', { exact: true }).and(page.locator(':focus')).waitFor();
    await page.keyboard.type('Bonus given');
    await money.getByLabel('Kind of event 1').selectOption('bonus');
    await money.getByRole('button', { name: 'Add event' }).click();
    await money.getByLabel('Event name 2', { exact: true }).fill('Cashout');
    await money.getByLabel('Kind of event 2').selectOption('withdrawal');
    await money.getByRole('button', { name: 'Remove Bonus given' }).click();
    // The focus stays in the mapping: on the row that took the removed one's place.
    await money.getByLabel('Event name 1', { exact: true }).and(page.locator(':focus')).waitFor();
    await expect(money.getByLabel('Event name 1', { exact: true }).inputValue()).resolves.toBe('Cashout');
    await money.getByRole('button', { name: 'Save money events' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    await expect(page.evaluate(() => fetch('/console/api/money').then((r) => r.json()))).resolves.toEqual({
      currency: 'USD',
      money_events: { Cashout: 'withdrawal' },
    });

    await page.reload();
    await money.getByLabel('Main currency').waitFor();
    await expect(money.getByLabel('Main currency').inputValue()).resolves.toBe('USD');
    await expect(money.getByLabel('Event name 1', { exact: true }).inputValue()).resolves.toBe('Cashout');
    await expect(money.getByLabel('Kind of event 1').inputValue()).resolves.toBe('withdrawal');
    await expect(money.getByLabel(/^Event name /).count()).resolves.toBe(1);
    await page.context().close();
  });

  test("a row the server refuses shows the server's message beside that row, and nothing is saved", async () => {
    const page = await signedInPage(stack, browser, app, 'admin', '/console/settings');
    const money = page.getByRole('form', { name: 'Money events' });
    await money.getByLabel('Main currency').waitFor();
    const before = await page.evaluate(() => fetch('/console/api/money').then((r) => r.json()));

    await money.getByRole('button', { name: 'Add event' }).click();
    await money.getByRole('button', { name: 'Add event' }).click();
    const rows = await money.getByLabel(/^Event name /).count();
    await money.getByLabel(`Event name ${rows - 1}`, { exact: true }).fill('Deposit');
    // The event set_affiliate writes: the server refuses it money, naming it.
    await money.getByLabel(`Event name ${rows}`, { exact: true }).fill('urm_affiliate_attributed');
    await money.getByRole('button', { name: 'Save money events' }).click();

    const refused = money.getByLabel(`Event name ${rows}`, { exact: true });
    await refused.and(page.locator('[aria-invalid="true"]')).waitFor();
    const errorId = (await refused.getAttribute('aria-describedby'))!;
    await expect(page.locator(`[id="${errorId}"]`).textContent()).resolves.toBe(
      'money_events: urm_affiliate_attributed is the attribution event and carries no money',
    );
    await expect(money.getByLabel(`Event name ${rows - 1}`, { exact: true }).getAttribute('aria-invalid')).resolves.toBeNull();
    await money.getByRole('alert').getByText('See the marked fields.').waitFor();
    await checkPage(page, 'console-settings-money-refused');
    await expect(page.evaluate(() => fetch('/console/api/money').then((r) => r.json()))).resolves.toEqual(before);
    await page.context().close();
  });

  test('VAPID keys are generated, then rotated only after a confirm; the identity secret is rotated after a confirm and shown once', async () => {
    const page = await signedInPage(stack, browser, app, 'admin', '/console/settings');
    const push = page.getByRole('form', { name: 'VAPID keys' });
    // The local portal origin is http: there is no subject to default to, and the server's 400 shows beside the field.
    await push.getByRole('button', { name: 'Generate keys' }).click();
    await push.locator('#vapid-subject-error').getByText('a subject is required').waitFor();
    await expect(push.getByLabel('Subject (mailto: or https:, optional)').getAttribute('aria-invalid')).resolves.toBe('true');
    await push.getByLabel('Subject (mailto: or https:, optional)').fill('mailto:push@casino.example');
    await push.getByRole('button', { name: 'Generate keys' }).click();
    await page.getByRole('status').getByText('VAPID keys generated.').waitFor();
    const first = (await page.evaluate(() => fetch('/console/api/vapid').then((r) => r.json()))) as { vapid_public_key: string };
    await page.getByText(first.vapid_public_key).waitFor();

    await push.getByRole('button', { name: 'Rotate keys' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate the VAPID keys?' });
    await rotate.getByText('Rotating stops every existing subscription until its page subscribes again.').waitFor();
    await rotate.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.evaluate(() => fetch('/console/api/vapid').then((r) => r.json()))).resolves.toMatchObject({ vapid_public_key: first.vapid_public_key });
    await push.getByRole('button', { name: 'Rotate keys' }).click();
    await rotate.getByRole('button', { name: 'Yes, rotate the keys' }).click();
    await page.getByRole('status').getByText('VAPID keys rotated.').waitFor();
    const second = (await page.evaluate(() => fetch('/console/api/vapid').then((r) => r.json()))) as { vapid_public_key: string };
    expect(second.vapid_public_key).not.toBe(first.vapid_public_key);

    await page.getByRole('button', { name: 'Rotate secret…' }).click();
    await page.getByRole('dialog', { name: 'Rotate the identity secret?' }).getByRole('button', { name: 'Yes, rotate the secret' }).click();
    await page.locator('.shown-once', { hasText: 'New identity secret' }).locator('code.secret').waitFor();
    await page.context().close();
  });

  test('the default plan of new affiliates is chosen among the plans and saved; an affiliate registered through the API then has it', async () => {
    const token = randomUUID().slice(0, 6);
    await createPlan(app.office, app.appId, commandLineActor, { name: `CPA ${token}`, cpa: { amount: '50', min_deposit: '20' } });
    const revshare = await createPlan(app.office, app.appId, commandLineActor, { name: `Revshare ${token}`, revshare: { percent: '30', carry_over: false } });
    const page = await signedInPage(stack, browser, app, 'admin', '/console/settings');
    const form = page.getByRole('form', { name: 'The application' });
    const select = form.getByLabel('Default plan of new affiliates');
    await select.locator('option', { hasText: `Revshare ${token}` }).waitFor({ state: 'attached' });
    await expect(select.inputValue()).resolves.toBe('');

    await select.selectOption(revshare.plan_id);
    await form.getByRole('button', { name: 'Save application' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    await page.reload();
    await expect(form.getByLabel('Default plan of new affiliates').inputValue()).resolves.toBe(revshare.plan_id);
    // Once one is chosen, "no default" is no longer offered: the API cannot clear it.
    await expect(form.getByLabel('Default plan of new affiliates').locator('option', { hasText: 'No default plan' }).count()).resolves.toBe(0);

    const affiliate = await registerAffiliate(stack.baseUrl, app);
    const read = (await page.evaluate((id) => fetch(`/console/api/affiliates/${id}`).then((r) => r.json()), affiliate.id)) as {
      affiliate: { plan_id?: string };
    };
    expect(read.affiliate.plan_id).toBe(revshare.plan_id);
    await page.context().close();
  });
});

describe('the Settings page, as a viewer', () => {
  test('is not in the nav, offers nothing, and forged POSTs get 403 from the server', async () => {
    const page = await signedInPage(stack, browser, app, 'viewer', '/console/settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();

    await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents()).resolves.toEqual([
      'Home',
      'Players',
      'Segments',
      'Affiliates',
      'Rejections',
    ]);
    await page.getByText('Your role does not allow this.').waitFor();
    await expect(page.getByRole('button', { name: 'Create key' }).count()).resolves.toBe(0);
    const forged = await forgedPost(page, '/console/api/keys', { scope: 'server' });
    expect(forged).toEqual({ status: 403, body: { message: 'Forbidden' } });
    await screenshot(page, 'viewer-settings');
    await checkPage(page, 'console-settings-viewer');
    await page.context().close();
  });
});
