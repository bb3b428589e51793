/**
 * The Users and Audit log pages in Chromium, as an admin: every user with
 * their role, a role changed from the row (and the last admin kept, the
 * server's 409 said in that row); the change then read in the audit log as a
 * person reads it, with the page's count. As a viewer, neither page offers
 * anything.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { consoleApp, signedInPage, type ConsoleApp } from '../support/console-browser';
import { testStack, type TestStack } from '../support/local-stack';
import { checkPage } from '../support/page-checks';

let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;

beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
  app = await consoleApp(stack, 'Admin casino');
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('the Users and Audit log pages, as an admin', () => {
  test('lists the users with their roles; a marketer is made a viewer from the row; the only admin stays admin; the audit log reads the change', async () => {
    const page = await signedInPage(stack, browser, app, 'admin');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    const table = page.getByRole('region', { name: 'Users (scrolls)' });
    await table.locator('tbody tr').nth(2).waitFor();
    await expect(table.locator('tbody tr').count()).resolves.toBe(3);
    await page.getByText('3 users on this page').waitFor();
    await checkPage(page, 'console-users');

    const mia = table.locator('tbody tr', { hasText: 'Mia Marketer' });
    await expect(mia.locator('.badge').textContent()).resolves.toBe('marketer');
    const listed = (await page.evaluate(() => fetch('/console/api/users').then((r) => r.json()))) as { users: { user_id: string; email: string }[] };
    const email = listed.users.find((user) => user.user_id === app.users.marketer)!.email;
    await mia.getByText(email, { exact: true }).waitFor();
    await mia.getByLabel(`Role of ${email}`).selectOption('viewer');
    await mia.getByRole('button', { name: `Change the role of ${email}` }).click();
    await mia.getByRole('status').getByText('Now viewer.').waitFor();
    await mia.locator('.badge', { hasText: 'viewer' }).waitFor();

    const mine = table.locator('tbody tr', { hasText: '(you)' });
    await expect(mine.locator('.badge').textContent()).resolves.toBe('admin');
    await mine.getByLabel(/^Role of /).selectOption('marketer');
    await mine.getByRole('button', { name: /^Change the role of / }).click();
    await expect(mine.getByRole('alert').textContent()).resolves.toBe('Not changed: the application must keep at least one admin.');
    await expect(mine.getByLabel(/^Role of /).inputValue()).resolves.toBe('admin');
    await checkPage(page, 'console-users-refused');

    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    const log = page.getByRole('region', { name: 'Audit log (scrolls)' });
    const entry = log.locator('tbody tr', { hasText: 'user.role_changed' });
    await entry.waitFor();
    const session = (await page.evaluate(() => fetch('/console/api/session').then((r) => r.json()))) as { user: { email: string } };
    const cells = await entry.locator('td').allTextContents();
    expect(cells.slice(1, 4)).toEqual([session.user.email, 'user.role_changed', `user:${app.users.marketer}`]);
    // The details as words: from → to, not JSON.
    expect(cells[4]).toBe('marketer → viewer');
    // When: the reader's time, the exact instant on hover.
    await expect(entry.locator('td time').getAttribute('datetime')).resolves.toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await page.getByText(/^\d+ records? on this page$/).waitFor();
    await checkPage(page, 'console-audit');
    await page.context().close();
  });
});

describe('the Users and Audit log pages, as a viewer', () => {
  test('say the role does not allow them, with no form', async () => {
    const page = await signedInPage(stack, browser, app, 'viewer', '/console/users');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByText('Your role does not allow this.').waitFor();
    await expect(page.getByRole('button', { name: /^Change the role of / }).count()).resolves.toBe(0);
    await checkPage(page, 'console-users-viewer');

    await page.goto(`${stack.baseUrl}/console/audit`);
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await page.getByText('Your role does not allow this.').waitFor();
    await page.context().close();
  });
});
