/**
 * The back-office console as its users meet it, in headless Chromium: sign in
 * through sign_in and /redirect, land on the console, find player-42, read its
 * attributes and timeline, set an attribute and see it applied, the users
 * and audit pages as an admin; as a viewer, no form to change a player, and
 * a forged POST from the page gets 403 from the server. Screenshots of each
 * page go to .urm/screenshots/console-*.png (git-ignored) for a person to look at.
 */
import { commandLineActor } from '../../functions/domain/audit';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { setMoneySettings } from '../../functions/back-office/money';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { tables } from '../../functions/manifest/resources';
import { partitionKey } from '../../functions/domain/stream-record';
import { launchChromium } from '../support/chromium';
import { request } from '../support/http';
import { waitFor } from '../support/local-process';
import { repoRoot, testStack, type TestStack } from '../support/local-stack';
import { checkPage } from '../support/page-checks';

const screenshots = join(repoRoot, '.urm', 'screenshots');
/** How long the page may take to show what the stream applied (the consumer applies within about a second). */
const applied = { timeout: 15_000 };
let stack: TestStack;
let browser: Browser;
let app: { appId: string; serverKey: string };
const users: Record<'admin' | 'viewer', string> = { admin: '', viewer: '' };

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  mkdirSync(screenshots, { recursive: true });
  const office = localBackOffice(localClients(stack.endpoints).document);
  const created = await createApp(office, { name: `Casino ${randomUUID().slice(0, 8)}`, portalOrigin: stack.baseUrl });
  app = { appId: created.app_id, serverKey: (await issueKey(office, created.app_id, commandLineActor, 'server')).key };
  const signUp = await request(stack.baseUrl, 'POST', '/enterprises/sign_up', {
    key: app.serverKey,
    body: {
      app_id: app.appId,
      users: [
        { email: `ada-${randomUUID()}@operator.example`, first_name: 'Ada', last_name: 'Lovelace' },
        { email: `vic-${randomUUID()}@operator.example`, first_name: 'Victor', last_name: 'Viewer', role: 'viewer' },
      ],
    },
  });
  expect(signUp.status).toBe(200);
  [users.admin, users.viewer] = signUp.body.users.map((user: { user_id: string }) => user.user_id);
  // The README's deposit carries money: the player page shows it.
  await setMoneySettings(office, app.appId, commandLineActor, { currency: 'EUR', money_events: { deposit: 'deposit' } });
  // The README's player.
  const ingest = (path: string, record: Record<string, unknown>) =>
    request(stack.baseUrl, 'POST', path, {
      key: app.serverKey,
      body: [{ app_id: app.appId, profile_id: 'player-42', urm_date_time: '2026-11-21T10:00:00Z', ...record }],
    });
  expect((await ingest('/profiles', { country: 'MT', urm_add: { deposits: 25.5 }, urm_unique_append: { games: ['blackjack'] } })).status).toBe(200);
  expect((await ingest('/events', { event: 'deposit', amount: 25.5, currency: 'EUR' })).status).toBe(200);
  // A record the consumer rejects (urm_add on a string), for the Rejections page.
  const rejected = await request(stack.baseUrl, 'POST', '/profiles', {
    key: app.serverKey,
    body: [
      { app_id: app.appId, profile_id: 'player-7', urm_date_time: '2026-11-21T10:00:00Z', nickname: 'ace' },
      { app_id: app.appId, profile_id: 'player-7', urm_date_time: '2026-11-21T10:00:01Z', urm_insert_id: 'bad-player-7', urm_add: { nickname: 1 } },
    ],
  });
  expect(rejected.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const shoot = (page: Page, name: string) => page.screenshot({ path: join(screenshots, `console-${name}.png`), fullPage: true });

/** A browser of its own, signed in as a person is: sign_in's link opened in it. */
async function signedIn(who: keyof typeof users): Promise<Page> {
  const signIn = await request(stack.baseUrl, 'POST', '/enterprises/sign_in', { key: app.serverKey, body: { app_id: app.appId, user_id: users[who] } });
  expect(signIn.status).toBe(200);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(signIn.body.redirect_url as string);
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return page;
}

/** The Players page from the sidebar: sign-in lands on Home. */
async function toPlayers(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Players' }).click();
  await page.getByRole('heading', { name: 'Players', level: 1 }).waitFor();
}

async function openPlayer42(page: Page): Promise<void> {
  await toPlayers(page);
  await page.getByLabel('Profile id, or its beginning').fill('player-42');
  await page.getByRole('button', { name: 'Search' }).click();
  // The README's writes are applied within seconds: search again until the player is listed.
  const link = page.getByRole('link', { name: 'player-42', exact: true });
  for (let attempt = 0; attempt < 15 && !(await link.isVisible()); attempt++) {
    await page.waitForTimeout(1000);
    await page.getByRole('button', { name: 'Search' }).click();
  }
  await link.click();
  await page.getByRole('heading', { name: 'player-42', level: 1 }).waitFor();
}

const attributeRow = (page: Page, name: string) =>
  page.locator('section[aria-labelledby="section-attributes"] tbody tr', { has: page.locator(`th:text-is("${name}")`) });

describe('the console in Chromium, as an admin', () => {
  test('sign in through /redirect, find player-42, read it, set an attribute and see it applied, then users, audit and sign out', async () => {
    const page = await signedIn('admin');

    expect(page.url()).toBe(`${stack.baseUrl}/console/`);
    await expect(page.locator('.app-name').textContent()).resolves.toMatch(/^Casino /);
    await expect(page.locator('.who').textContent()).resolves.toBe('Ada Lovelace admin');
    // /console/ opens on the application's figures; the players are one link away.
    await page.locator('#kpi-players .kpi-value').waitFor();
    await toPlayers(page);
    // The list as a person sees it once loaded, not its spinner.
    await page.locator('main table tbody tr').first().waitFor();
    await shoot(page, 'players');
    await checkPage(page, 'console-players');

    await openPlayer42(page);
    expect(page.url()).toBe(`${stack.baseUrl}/console/players/player-42`);
    await attributeRow(page, 'games').waitFor(applied);
    // Values as values: a string without quotes, a list as its items; the type beside them.
    await expect(attributeRow(page, 'country').locator('td').allTextContents()).resolves.toEqual(['string', 'MT']);
    await expect(attributeRow(page, 'games').locator('td').allTextContents()).resolves.toEqual(['array', 'blackjack']);
    await expect(attributeRow(page, 'games').locator('td .chips li').allTextContents()).resolves.toEqual(['blackjack']);
    await page.locator('table.timeline').getByText('deposit', { exact: true }).waitFor(applied);
    // The funnel consumer counts the deposit beside the profile consumer: read the page again until it has.
    const deposits = page.locator('#kpi-deposits .kpi-value');
    for (let attempt = 0; attempt < 15 && !(await deposits.isVisible()); attempt++) {
      await page.waitForTimeout(1000);
      await page.reload();
      await page.getByRole('heading', { name: 'player-42', level: 1 }).waitFor();
    }
    await expect(deposits.textContent()).resolves.toBe('25.50 EUR');
    await expect(page.locator('#kpi-deposit-count .kpi-value').textContent()).resolves.toBe('1');
    await shoot(page, 'player');
    await checkPage(page, 'console-player');
    // 200 % zoom on a 1280-pixel screen is a 640-pixel viewport: the page reflows, nothing needs sideways scrolling.
    await page.setViewportSize({ width: 640, height: 800 });
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(640);
    await shoot(page, 'player-zoomed');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The server's refusal shows next to the field it names.
    await page.getByLabel('Attribute', { exact: true }).fill('urm_vip');
    await page.getByLabel('Value', { exact: true }).fill('yes');
    await page.getByRole('button', { name: 'Set attribute' }).click();
    await expect(page.locator('#attribute-error').textContent()).resolves.toMatch(/^attribute /);
    await shoot(page, 'player-error');

    await page.getByLabel('Attribute', { exact: true }).fill('vip');
    await page.getByLabel('Type').selectOption('boolean');
    await page.getByLabel('Value', { exact: true }).selectOption('true');
    await page.getByRole('button', { name: 'Set attribute' }).click();
    await page.getByRole('status').getByText('vip set to true.').waitFor();
    await attributeRow(page, 'vip').waitFor(applied);
    await expect(attributeRow(page, 'vip').locator('td').allTextContents()).resolves.toEqual(['boolean', 'Yes']);
    const session = (await page.evaluate(() => fetch('/console/api/session').then((r) => r.json()))) as { user: { email: string } };
    await page.locator('table.timeline').getByText(`${session.user.email} set vip = true`).waitFor(applied);
    await shoot(page, 'player-changed');

    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Home' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await page.getByRole('list', { name: 'Today' }).getByText('Players', { exact: true }).waitFor();
    await checkPage(page, 'console-home');
    // Find a player from Home: the Players page with the search made.
    await page.getByLabel('Profile id, or its beginning').fill('player-4');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('heading', { name: 'Players', level: 1 }).waitFor();
    expect(page.url()).toBe(`${stack.baseUrl}/console/players?prefix=player-4`);
    await page.getByRole('link', { name: 'player-42', exact: true }).waitFor();
    await expect(page.getByLabel('Profile id, or its beginning').inputValue()).resolves.toBe('player-4');

    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Rejections' }).click();
    await page.getByRole('heading', { name: 'Rejections', level: 1 }).waitFor();
    // The consumer rejects it within seconds of the 200: the page is read again until it is listed.
    const rejection = page.locator('main tbody tr', { hasText: 'player-7' });
    for (let attempt = 0; attempt < 30 && (await rejection.count()) === 0; attempt++) {
      await page.waitForTimeout(500);
      await page.reload();
      await page.getByRole('heading', { name: 'Rejections', level: 1 }).waitFor();
      await page.locator('main .table-state:not([aria-busy]), main tbody tr').first().waitFor();
    }
    await rejection.locator('summary').click();
    // The record readably: its fields as values (the change as JSON, the id as text), and as sent.
    await expect(rejection.locator('dl.record-fields dt').allTextContents()).resolves.toEqual(
      expect.arrayContaining(['profile_id', 'urm_add', 'urm_insert_id']),
    );
    await expect(rejection.locator('dl.record-fields div', { hasText: 'profile_id' }).locator('dd').textContent()).resolves.toBe('player-7');
    await expect(rejection.locator('td').last().textContent()).resolves.toMatch(/urm_add needs a number, but nickname is a string/);
    await checkPage(page, 'console-rejections');

    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.locator('tbody tr').nth(1).waitFor();
    await expect(page.locator('tbody tr').count()).resolves.toBe(2);
    // The only admin cannot make themself a viewer: the server's 409 is shown.
    const mine = page.locator('tbody tr', { hasText: '(you)' });
    await mine.getByLabel(/^Role of /).selectOption('viewer');
    await mine.getByRole('button', { name: /^Change the role of / }).click();
    await expect(mine.getByRole('alert').textContent()).resolves.toBe('Not changed: the application must keep at least one admin.');
    await shoot(page, 'users');

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    const entry = page.locator('tbody tr', { hasText: 'player.attribute_set' });
    await entry.waitFor();
    await expect(entry.locator('td').nth(3).textContent()).resolves.toBe('player:player-42');
    await shoot(page, 'audit');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Signed out' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Not signed in' }).waitFor();
    await shoot(page, 'signed-out');
    await page.context().close();
  });
});

describe('finding a player by name', () => {
  test('searching "liam" on the Players page finds Liam Borg, shows what matched, and a column can be added; a search that finds nobody says so', async () => {
    const sent = await request(stack.baseUrl, 'POST', '/profiles', {
      key: app.serverKey,
      body: [
        {
          app_id: app.appId,
          profile_id: 'player-liam',
          urm_date_time: '2026-11-21T10:00:00Z',
          first_name: 'Liam',
          last_name: 'Borg',
          email: 'liam.borg@example.com',
          phone: '+356 7912 3456',
          country: 'MT',
        },
      ],
    });
    expect(sent.status).toBe(200);
    // Indexed as the profile is applied, seconds after the 200: the page's first search comes after that.
    await waitFor(
      async () => (await request(stack.baseUrl, 'GET', `/profiles/player-liam?app_id=${app.appId}`, { key: app.serverKey })).status === 200,
      'Liam to be applied',
      30_000,
    );
    const page = await signedIn('admin');
    await toPlayers(page);

    await page.getByLabel('Search by id, email, name or phone').fill('liam');
    await page.getByRole('button', { name: 'Search' }).click();
    // Liam is also on the list the page opened with: read his row once the search's answer has replaced it.
    await page.getByText(/found, best matches first/).waitFor();
    const link = page.getByRole('link', { name: 'player-liam', exact: true });
    await link.waitFor();
    const row = page.locator('main tbody tr', { has: link });
    await expect(row.locator('td').allTextContents()).resolves.toEqual(expect.arrayContaining(['Liam Borg', 'liam.borg@example.com', 'first name (exact)']));
    await page.getByText('Columns', { exact: true }).click();
    await page.getByRole('checkbox', { name: 'country' }).check();
    await page.getByRole('columnheader', { name: 'country' }).waitFor();
    await expect(row.locator('td').allTextContents()).resolves.toContain('MT');
    await page.getByText('Columns', { exact: true }).click();
    await checkPage(page, 'console-players-search');

    await page.getByLabel('Search by id, email, name or phone').fill('nobody-at-all');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No player matches “nobody-at-all”.').waitFor();
    await page.context().close();
  });
});

describe('a profile id stored before the identifier rule', () => {
  test('shows its invisible character marked on the players list and on the player page', async () => {
    // The API refuses such an id now (test/integration/trust-identifiers.test.ts): the item is written as an older version stored it.
    const ghost = 'player\u200B-ghost';
    const shown = 'player⟨U+200B⟩-ghost';
    await localClients(stack.endpoints).document.send(
      new PutCommand({
        TableName: tables.profiles.localName,
        Item: {
          pk: partitionKey(app.appId, ghost),
          app_id: app.appId,
          profile_id: ghost,
          attrs: JSON.stringify({ country: 'MT' }),
          exists: true,
          version: 1,
          updated_at: '2026-11-20T09:00:00.000Z',
          applied: {},
          recent: {},
        },
      }),
    );
    const page = await signedIn('admin');
    await toPlayers(page);

    await page.getByLabel('Profile id, or its beginning').fill('player');
    await page.getByRole('button', { name: 'Search' }).click();
    const link = page.getByRole('link', { name: shown, exact: true });
    await link.waitFor();
    await expect(link.locator('mark.invisible-char').allTextContents()).resolves.toEqual(['⟨U+200B⟩']);
    // The lookalike is not taken for the player it imitates.
    await expect(page.getByRole('link', { name: 'player-ghost', exact: true }).count()).resolves.toBe(0);
    await checkPage(page, 'console-players-invisible');

    await link.click();
    const heading = page.getByRole('heading', { name: shown, level: 1 });
    await heading.waitFor();
    await expect(heading.locator('mark.invisible-char').allTextContents()).resolves.toEqual(['⟨U+200B⟩']);
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).locator('[aria-current="page"]').textContent()).resolves.toBe(shown);
    await page.getByRole('alert').getByText("This player's id cannot be read here").waitFor();
    await checkPage(page, 'console-player-invisible');
    await page.context().close();
  });
});

describe("a player's CRM attributes", () => {
  test('show as badges at the top of the player page: the RG status with its end, and each consent as stored', async () => {
    const id = `crm-${randomUUID().slice(0, 8)}`;
    const stored = await request(stack.baseUrl, 'POST', '/profiles', {
      key: app.serverKey,
      body: [
        {
          app_id: app.appId,
          profile_id: id,
          urm_date_time: '2026-11-21T10:00:00Z',
          urm_rg_status: 'self_excluded',
          urm_rg_until: '2099-01-01T00:00:00Z',
          urm_consent_email: true,
        },
      ],
    });
    expect(stored.status).toBe(200);
    // The stream applies it within about a second: the page is opened once it has been.
    const read = () => request(stack.baseUrl, 'GET', `/profiles/${id}?app_id=${app.appId}`, { key: app.serverKey });
    for (let attempt = 0; attempt < 150 && (await read()).status !== 200; attempt++) await new Promise((resolve) => setTimeout(resolve, 100));
    const page = await signedIn('admin');

    await page.goto(`${stack.baseUrl}/console/players/${id}`);
    const badges = page.locator('.player-badges');
    await badges.getByText('RG: self excluded until 2099-01-01').waitFor();

    await expect(badges.locator('.badge').allTextContents()).resolves.toEqual(['RG: self excluded until 2099-01-01', 'Email: opted in', 'SMS: no consent']);
    await page.context().close();
  });
});

describe('an unknown player in the console', () => {
  test('says there is no such player, and shows no timeline although it was asked for with the player', async () => {
    const page = await signedIn('admin');
    const id = `nobody-${Date.now()}`;
    // The order that once showed the timeline's bare "Not found.": the player's read is held until the timeline has
    // answered its 404 and the page has shown it; only then may the player's own 404 come.
    let releasePlayer!: () => void;
    const playerHeld = new Promise<void>((resolve) => (releasePlayer = resolve));
    await page.route(`${stack.baseUrl}/console/api/players/${id}`, async (route) => {
      await playerHeld;
      await route.continue();
    });

    const timelineAnswered = page.waitForResponse((response) => response.url().startsWith(`${stack.baseUrl}/console/api/players/${id}/timeline`));

    await page.goto(`${stack.baseUrl}/console/players/${id}`);
    await timelineAnswered;
    await page.getByText('Loading the timeline…').waitFor({ state: 'detached' });
    const alertsBeforeThePlayer = await page.getByRole('alert').allTextContents();
    releasePlayer();

    expect(alertsBeforeThePlayer).toEqual([]);
    await expect(page.getByRole('alert').textContent()).resolves.toBe('There is no player with this id in this application.');
    await expect(page.getByRole('alert').count()).resolves.toBe(1);
    await expect(page.getByRole('heading', { name: 'Timeline' }).count()).resolves.toBe(0);
    await shoot(page, 'player-unknown');
    await page.context().close();
  });
});

describe('the console in Chromium, as a viewer', () => {
  test('shows no form to change a player, and the server refuses a forged change and the admin pages', async () => {
    const page = await signedIn('viewer');

    await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents()).resolves.toEqual([
      'Home',
      'Players',
      'Segments',
      'Affiliates',
      'Rejections',
    ]);
    await openPlayer42(page);
    await expect(page.getByRole('button', { name: 'Set attribute' }).count()).resolves.toBe(0);
    await expect(page.getByLabel('Attribute', { exact: true }).count()).resolves.toBe(0);
    await shoot(page, 'viewer-player');
    await checkPage(page, 'console-player-viewer');

    const forged = await page.evaluate(async () => {
      const { csrf_token: csrf } = (await fetch('/console/api/session').then((r) => r.json())) as { csrf_token: string };
      const answer = await fetch('/console/api/players/player-42/attributes', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
        body: JSON.stringify({ action: 'set', attribute: 'vip', value: false }),
      });
      return { status: answer.status, body: (await answer.json()) as unknown };
    });
    expect(forged).toEqual({ status: 403, body: { message: 'Forbidden' } });

    await page.goto(`${stack.baseUrl}/console/users`);
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByText('Your role does not allow this.').waitFor();
    await shoot(page, 'viewer-forbidden');
    await page.context().close();
  });
});
