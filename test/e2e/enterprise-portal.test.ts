/**
 * The enterprise sign-in as a person meets it: a real headless Chromium
 * (Debian's, driven by playwright-core) opens the sign-in link and lands on
 * the back-office console.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { checkPage } from '../support/page-checks';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
let browser: Browser;
beforeAll(async () => {
  stack = await testStack();
  // A fresh temporary profile per launch: no cookie survives from another run.
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Signs a user up and in over HTTP, as the integrator's server does; answers the sign-in link. */
async function signInLink(user: { first_name: string; last_name: string }): Promise<string> {
  const key = stack.dev.server_key;
  const app_id = stack.dev.app_id;
  const email = `portal-${randomUUID()}@example.com`;
  const signedUp = await request(stack.baseUrl, 'POST', '/enterprises/sign_up', { key, body: { app_id, users: [{ email, ...user }] } });
  expect(signedUp.status).toBe(200);
  const signedIn = await request(stack.baseUrl, 'POST', '/enterprises/sign_in', { key, body: { app_id, user_id: signedUp.body.users[0].user_id } });
  expect(signedIn.status).toBe(200);
  return signedIn.body.redirect_url;
}

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies(stack.baseUrl)).find((cookie) => cookie.name === 'urm_portal_session');
}

describe('the enterprise sign-in in Chromium', () => {
  test('the sign-in link lands on the console naming the user, with an HttpOnly session cookie; the same link then is refused', async () => {
    const link = await signInLink({ first_name: 'Zoë', last_name: "O'Hara <QA>" });
    const context = await browser.newContext();
    const page = await context.newPage();

    const landed = await page.goto(link);

    expect(landed?.status()).toBe(200);
    expect(page.url()).toBe(`${stack.baseUrl}/console/`);
    // The name is the first of the console's "who" (its role badge follows).
    await page.locator('.who > span:first-child').waitFor({ timeout: 15_000 });
    expect(await page.textContent('.who > span:first-child')).toBe("Zoë O'Hara <QA>");
    expect(await page.locator('qa').count()).toBe(0);
    const cookie = await sessionCookie(context);
    expect(cookie).toBeTruthy();
    expect(cookie!.httpOnly).toBe(true);
    expect(cookie!.sameSite).toBe('Lax');
    expect(cookie!.path).toBe('/');
    expect(cookie!.secure).toBe(false);
    expect(await page.evaluate(() => document.cookie)).not.toMatch(/urm_portal_session/);

    const again = await page.goto(link);

    expect(again?.status()).toBe(401);
    expect(await page.textContent('h1')).toBe('This sign-in link has already been used');
    // Server-rendered in the portal's stylesheet: no script on the page.
    expect(await page.locator('script').count()).toBe(0);
    await checkPage(page, 'portal-enterprise-link-refused');
    await context.close();
  });

  test('signing out from the console ends the session on the server', async () => {
    const link = await signInLink({ first_name: 'Grace', last_name: 'Hopper' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link);
    const cookie = await sessionCookie(context);

    await page.getByRole('button', { name: 'Sign out' }).click();

    await page.getByRole('heading', { name: 'Signed out' }).waitFor({ timeout: 15_000 });
    const replayed = await request(stack.baseUrl, 'GET', '/console/api/session', { headers: { Cookie: `${cookie!.name}=${cookie!.value}` } });
    expect(replayed.status).toBe(401);
    await page.goto(`${stack.baseUrl}/console/`);
    await page.getByRole('heading', { name: 'Not signed in' }).waitFor({ timeout: 15_000 });
    await context.close();
  });
});
