/**
 * The portal's round-two pages as a person meets them in headless Chromium,
 * at 390 and 1366 px (checkPage: axe, no sideways scroll, screenshots
 * .urm/screenshots/portal-*.png): the dashboard's By link table with a long
 * link name, the links page's Copy buttons and link builder, the profile and
 * password change, and the join page.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { createApp } from '../../functions/back-office/apps';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { launchChromium } from '../support/chromium';
import { checkPage } from '../support/page-checks';
import { testStack, type TestStack } from '../support/local-stack';
import { PortalVisitor, registeredAffiliate } from '../support/portal';

let stack: TestStack;
let browser: Browser;
beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function newPage(options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, ...options });
  return context.newPage();
}

async function signedIn(options: BrowserContextOptions = {}) {
  const affiliate = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key, { first_name: 'Polly', last_name: 'Polish' });
  const page = await newPage(options);
  await page.goto(affiliate.login_url);
  await page.getByLabel('Username or email').fill(affiliate.username);
  await page.getByLabel('Password').fill(affiliate.password);
  await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in' }).click()]);
  return { affiliate, page, portal: new PortalVisitor(stack.baseUrl, stack.dev.app_id) };
}

async function createLink(page: Page, name: string): Promise<string> {
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Landing page').fill(`${stack.baseUrl}/`);
  await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Create link' }).click()]);
  return (await page.textContent('#link-created code'))!;
}

/** How many lines of text an element's box holds. */
const linesOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => {
    const style = getComputedStyle(element);
    const padding = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
    return Math.round((element.getBoundingClientRect().height - padding) / Number.parseFloat(style.lineHeight));
  });

describe('the portal, round two, in Chromium', () => {
  test('the By link table keeps a long link name readable at 390 and 1366 px: one or two lines, no sideways page scroll', async () => {
    const { page, portal } = await signedIn();
    await page.goto(portal.url('links'));
    const clickAddress = await createLink(page, 'Instagram spring promotion 2026');
    const visitor = await browser.newContext();
    await (await visitor.newPage()).goto(`${clickAddress}?urm_aff=story`);
    await visitor.close();

    // The click is counted within seconds: look again a bounded number of times.
    for (let attempt = 0; attempt < 40 && (await page.locator('#links-table').count()) === 0; attempt++) {
      await page.goto(portal.url('./'));
      if ((await page.locator('#links-table').count()) === 0) await new Promise((done) => setTimeout(done, 500));
    }

    expect(await page.textContent('#links-table tbody th')).toBe('Instagram spring promotion 2026');
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      const lines = await linesOf(page, '#links-table tbody th');
      expect({ width, oneOrTwoLines: lines >= 1 && lines <= 2 }).toEqual({ width, oneOrTwoLines: true });
      // The first column stays in view while the figures scroll under it.
      expect(await page.locator('#links-table tbody th').evaluate((cell) => getComputedStyle(cell).position)).toBe('sticky');
    }
    await checkPage(page, 'portal-dashboard-by-link');
    await page.context().close();
  });

  test('each link has a Copy button that a keyboard reaches, which copies and says "Copied"; the builder adds a sub-id', async () => {
    const { page, portal } = await signedIn({ permissions: ['clipboard-read', 'clipboard-write'] });
    await page.goto(portal.url('links'));
    const clickAddress = await createLink(page, 'Summer');
    const copy = page.getByRole('button', { name: 'Copy the click address of Summer' });

    await copy.focus();
    await page.keyboard.press('Enter');

    await page.waitForFunction(() => document.getElementById('copy-status')?.textContent !== '', undefined, { timeout: 5000 });
    expect(await page.textContent('#copy-status')).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(clickAddress);
    expect(await page.evaluate(() => getSelection()?.toString())).toBe(clickAddress);
    await checkPage(page, 'portal-links-copy');

    await page.getByLabel('Link', { exact: true }).selectOption({ label: 'Summer' });
    await page.getByLabel('Sub-id (urm_aff)').fill('bad id!');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Build link' }).click()]);
    expect(await page.textContent('#field-sub_id-error')).toBe('Use 1 to 100 letters, digits, dots, underscores or dashes.');
    await page.getByLabel('Sub-id (urm_aff)').fill('ig.story_7');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Build link' }).click()]);
    expect(await page.textContent('#built-address')).toBe(`${clickAddress}?urm_aff=ig.story_7`);
    await page.getByRole('button', { name: 'Copy the tracking link' }).click();
    await page.waitForFunction(() => navigator.clipboard.readText().then((text) => text.includes('urm_aff=')), undefined, { timeout: 5000 });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${clickAddress}?urm_aff=ig.story_7`);
    await checkPage(page, 'portal-links-builder');
    await page.context().close();
  });

  test('without clipboard permission, Copy selects the address and says how to copy it', async () => {
    const { page, portal } = await signedIn();
    await page.goto(portal.url('links'));
    const clickAddress = await createLink(page, 'Autumn');

    await page.getByRole('button', { name: 'Copy the click address of Autumn' }).click();
    await page.waitForFunction(() => document.getElementById('copy-status')?.textContent !== '', undefined, { timeout: 5000 });

    expect(await page.evaluate(() => getSelection()?.toString())).toBe(clickAddress);
    expect(await page.textContent('#copy-status')).toMatch(/^(Copied|Selected: press Ctrl\+C or ⌘C to copy)$/);
    await page.context().close();
  });

  test('the profile: names and contacts saved, a refusal names its field; a password change signs the other browsers out', async () => {
    const { page, affiliate } = await signedIn();
    await Promise.all([page.waitForLoadState('load'), page.getByRole('link', { name: 'Profile', exact: true }).click()]);
    expect(await page.textContent('h1')).toBe('Profile');
    expect(await page.textContent('#profile-email')).toBe(affiliate.email);
    await checkPage(page, 'portal-profile');

    await page.getByLabel('Telegram').fill('ab');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Save profile' }).click()]);
    expect(await page.textContent('#field-telegram-error')).toBe('Telegram must be 5 to 32 characters: letters, digits and underscores.');
    await checkPage(page, 'portal-profile-error');
    await page.getByLabel('Telegram').fill('polly_polish');
    await page.getByLabel('Last name').fill('Shine');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Save profile' }).click()]);
    expect(await page.textContent('#profile-saved')).toContain('Your profile has been saved.');
    expect(await page.textContent('#signed-in-as')).toBe('Polly Shine');

    await page.getByLabel('Current password').fill(affiliate.password);
    await page.getByLabel('New password', { exact: true }).fill('a shinier password');
    await page.getByLabel('New password, again').fill('a shinier password');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Change password' }).click()]);
    expect(await page.textContent('#password-changed')).toContain('Every other session has been signed out.');
    await page.context().close();
  });

  test('the join page: off by default (404, and no link from sign-in); open, an application leads to what happens next', async () => {
    const office = localBackOffice(localClients(stack.endpoints).document);
    const app = await createApp(office, { name: 'Open Door Casino', portalOrigin: stack.baseUrl });
    const page = await newPage();
    const base = `${stack.baseUrl}/affiliates/${app.app_id}/`;

    const closed = await page.goto(`${base}join`);
    expect(closed?.status()).toBe(404);
    await page.goto(`${base}login`);
    expect(await page.getByRole('link', { name: 'Join the programme' }).count()).toBe(0);

    await office.apps.update(app.app_id, { affiliate_signup: 'open' });
    await page.goto(`${base}login`);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('link', { name: 'Join the programme' }).click()]);
    expect(await page.textContent('h1')).toBe('Join the programme');
    await checkPage(page, 'portal-join');
    const token = randomUUID().slice(0, 8);
    await page.getByLabel('Email').fill(`join-${token}@example.com`);
    await page.getByLabel('Username').fill(`join_${token}`);
    await page.getByLabel('Password', { exact: true }).fill('open sesame 42');
    await page.getByLabel('Password, again').fill('open sesame 4');
    await page.getByLabel('First name').fill('Jo');
    await page.getByLabel('Last name').fill('Iner');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Apply' }).click()]);
    expect(await page.textContent('#field-confirm-error')).toBe('The two passwords are not the same.');
    await checkPage(page, 'portal-join-error');
    await page.getByLabel('Password', { exact: true }).fill('open sesame 42');
    await page.getByLabel('Password, again').fill('open sesame 42');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Apply' }).click()]);
    expect(await page.textContent('h1')).toBe('Application received');
    await checkPage(page, 'portal-join-received');
    await page.context().close();
  });
});
