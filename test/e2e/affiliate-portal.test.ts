/**
 * The affiliate portal as a person meets it, in headless Chromium: register
 * over the API, open login_url, sign in, read the dashboard, sign out; and the
 * pages around it (locked, pending, reset). Screenshots of each page go to
 * .urm/screenshots/affiliate-portal-*.png (git-ignored) for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import { tables } from '../../functions/shared/manifest/resources';
import { portalLimits } from '../../functions/shared/domain/affiliate-portal';
import { localClients } from '../../lib/local/stack';
import { launchChromium } from '../support/chromium';
import { repoRoot, testStack, type TestStack } from '../support/local-stack';
import { sentMail } from '../support/mail';
import { PortalVisitor, registeredAffiliate } from '../support/portal';

const screenshots = join(repoRoot, '.urm', 'screenshots');
let stack: TestStack;
let browser: Browser;
beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  mkdirSync(screenshots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

const shoot = (page: Page, name: string) => page.screenshot({ path: join(screenshots, `affiliate-portal-${name}.png`), fullPage: true });

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  return context.newPage();
}

async function signIn(page: Page, login: string, password: string) {
  await page.getByLabel('Username or email').fill(login);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in' }).click()]);
}

describe('the affiliate portal in Chromium', () => {
  test('register, open login_url, sign in, see the dashboard, sign out', async () => {
    const affiliate = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key, { first_name: 'Zoë', last_name: "O'Hara <QA>" });
    const page = await newPage();

    await page.goto(affiliate.login_url);
    await shoot(page, 'login');
    await signIn(page, affiliate.username, affiliate.password);

    expect(page.url()).toBe(`${stack.baseUrl}/affiliates/${stack.dev.app_id}/`);
    expect(await page.textContent('h1')).toBe('Dashboard');
    expect(await page.textContent('#signed-in-as')).toBe("Zoë O'Hara <QA>");
    expect(await page.textContent('#total-commission .value')).toBe('0.00 EUR');
    expect(await page.locator('svg[role=img]').count()).toBe(1);
    const cookie = (await page.context().cookies(stack.baseUrl + `/affiliates/${stack.dev.app_id}/`)).find((c) => c.name === 'urm_aff_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: `/affiliates/${stack.dev.app_id}/` });
    await shoot(page, 'dashboard');
    await page.setViewportSize({ width: 600, height: 800 });
    await shoot(page, 'dashboard-narrow');

    await Promise.all([page.waitForLoadState('load'), page.getByRole('link', { name: 'Links', exact: true }).click()]);
    await page.setViewportSize({ width: 1200, height: 800 });
    await page.getByLabel('Name').fill('Spring <promo>');
    await page.getByLabel('Landing page').fill('https://elsewhere.example/landing');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Create link' }).click()]);
    expect(await page.textContent('#field-landing_url-error')).toContain("The landing page must be on one of the application's site origins");
    await shoot(page, 'links-error');
    await page.getByLabel('Landing page').fill(`${stack.baseUrl}/welcome?lang=en`);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Create link' }).click()]);
    expect(await page.textContent('#link-created')).toMatch(new RegExp(`Spring <promo>.*${stack.baseUrl}/t/`));
    expect(await page.textContent('#links-list tbody th')).toBe('Spring <promo>');
    await shoot(page, 'links');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('link', { name: 'Dashboard' }).click()]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^affiliate-report-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);

    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign out' }).click()]);
    expect(page.url()).toBe(`${stack.baseUrl}/affiliates/${stack.dev.app_id}/login?notice=signed-out`);
    expect(await page.textContent('[role=status]')).toContain('You have signed out');
    await page.goto(`${stack.baseUrl}/affiliates/${stack.dev.app_id}/`);
    expect(page.url()).toBe(`${stack.baseUrl}/affiliates/${stack.dev.app_id}/login`);
    await page.context().close();
  });

  test('a locked account and a pending one each get a page that says why', async () => {
    const locked = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key);
    const pending = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key, { first_name: 'Pat', last_name: 'Pending' });
    // The operator's approval step (lane C's admin CLI) is not in this branch: the status is set as it would store it.
    await localClients(stack.endpoints).document.send(
      new UpdateCommand({
        TableName: tables.affiliates.localName,
        Key: { app_id: stack.dev.app_id, sk: `affiliate#${pending.affiliate_id}` },
        UpdateExpression: 'SET #status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'pending' },
      }),
    );
    const page = await newPage();

    for (let i = 0; i < portalLimits.failuresPerAccount; i++) {
      await page.goto(locked.login_url);
      await signIn(page, locked.username, 'not the password');
    }
    expect(await page.textContent('h1')).toBe('Too many attempts');
    await shoot(page, 'locked');

    await page.goto(pending.login_url);
    await signIn(page, pending.username, pending.password);
    expect(await page.textContent('h1')).toBe('Account awaiting approval');
    await shoot(page, 'pending');
    await page.context().close();
  });

  test('forgot password: the mailed link opens the new-password form, which leads back to sign-in', async () => {
    const affiliate = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key);
    const page = await newPage();
    await page.goto(new PortalVisitor(stack.baseUrl, stack.dev.app_id).url('login'));
    await Promise.all([page.waitForLoadState('load'), page.getByRole('link', { name: 'Forgot your password?' }).click()]);
    await shoot(page, 'forgot');
    await page.getByLabel('Email').fill(affiliate.email);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Send the link' }).click()]);
    await shoot(page, 'reset-sent');

    const mail = (await sentMail(stack)).find((candidate) => candidate.destination.to.some((to) => to.includes(affiliate.email)));
    const link = /https?:\/\/[^\s]+reset\?token=[A-Za-z0-9_-]{43}/.exec(mail?.body.text ?? '')![0];
    await page.goto(link);
    await shoot(page, 'reset');
    await page.getByLabel('New password', { exact: true }).fill('a brand new secret');
    await page.getByLabel('New password, again').fill('a brand new secret');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Save the new password' }).click()]);

    expect(await page.textContent('[role=status]')).toContain('Your password has been changed');
    await signIn(page, affiliate.email, 'a brand new secret');
    expect(await page.textContent('h1')).toBe('Dashboard');
    await page.context().close();
  });
});
