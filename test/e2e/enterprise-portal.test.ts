/**
 * The enterprise sign-in as a person meets it: a real headless Chromium
 * (Debian's, driven by playwright-core) opens the sign-in link and lands on
 * the portal.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { type Browser, type BrowserContext } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';


let stack: TestStack;
let browser: Browser;
before(async () => {
  stack = await testStack();
  // A fresh temporary profile per launch: no cookie survives from another run.
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

/** Signs a user up and in over HTTP, as the integrator's server does; answers the sign-in link. */
async function signInLink(user: { first_name: string; last_name: string }): Promise<string> {
  const key = stack.dev.server_key;
  const app_id = stack.dev.app_id;
  const email = `portal-${randomUUID()}@example.com`;
  const signedUp = await request(stack.baseUrl, 'POST', '/enterprises/sign_up', { key, body: { app_id, users: [{ email, ...user }] } });
  assert.equal(signedUp.status, 200);
  const signedIn = await request(stack.baseUrl, 'POST', '/enterprises/sign_in', { key, body: { app_id, user_id: signedUp.body.users[0].user_id } });
  assert.equal(signedIn.status, 200);
  return signedIn.body.redirect_url;
}

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies(stack.baseUrl)).find((cookie) => cookie.name === 'urm_portal_session');
}

describe('the enterprise portal in Chromium', () => {
  test('the sign-in link lands on the portal greeting the user, with an HttpOnly session cookie; the same link then is refused', async () => {
    const link = await signInLink({ first_name: 'Zoë', last_name: "O'Hara <QA>" });
    const context = await browser.newContext();
    const page = await context.newPage();

    const landed = await page.goto(link);

    assert.equal(landed?.status(), 200);
    assert.equal(page.url(), `${stack.baseUrl}/portal`);
    assert.equal(await page.textContent('#user-name'), "Zoë O'Hara <QA>");
    assert.equal(await page.locator('qa').count(), 0, 'the name is text, not markup');
    const cookie = await sessionCookie(context);
    assert.ok(cookie, 'a session cookie is set');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    assert.equal(cookie.path, '/');
    assert.equal(cookie.secure, false, 'the local portal is plain-HTTP loopback');
    assert.doesNotMatch(await page.evaluate(() => document.cookie), /urm_portal_session/);

    const again = await page.goto(link);

    assert.equal(again?.status(), 401);
    assert.equal(await page.textContent('h1'), 'This sign-in link has already been used');
    await context.close();
  });

  test('signing out from the portal ends the session', async () => {
    const link = await signInLink({ first_name: 'Grace', last_name: 'Hopper' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link);

    await Promise.all([page.waitForURL(`${stack.baseUrl}/portal/sign_out`), page.click('button[type=submit]')]);

    assert.equal(await page.textContent('h1'), 'You have signed out');
    assert.equal(await sessionCookie(context), undefined);
    const home = await page.goto(`${stack.baseUrl}/portal`);
    assert.equal(home?.status(), 401);
    assert.equal(await page.textContent('h1'), 'You are not signed in');
    await context.close();
  });
});
