/**
 * The affiliate portal as a person meets it, in headless Chromium: register
 * over the API, open login_url, sign in, read the dashboard, sign out; and the
 * pages around it (locked, pending, reset). Each page loads no script, passes
 * checkPage (axe, no sideways scroll at 390 and 1366 px; screenshots
 * .urm/screenshots/portal-*.png) and works with JavaScript off. More
 * screenshots go to .urm/screenshots/affiliate-portal-*.png (git-ignored).
 */
import { commandLineActor } from '../../functions/domain/audit';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { copyScript } from '../../functions/affiliate-portal/pages/copy-script';
import { portalLimits } from '../../functions/domain/affiliate-portal';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { launchChromium } from '../support/chromium';
import { request } from '../support/http';
import { repoRoot, testStack, type TestStack } from '../support/local-stack';
import { setAffiliate } from '../support/funnel';
import { sentMail } from '../support/mail';
import { PortalVisitor, registeredAffiliate } from '../support/portal';
import { checkPage } from '../support/page-checks';

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

/** The portal's pages are server-rendered and need no script: none is on the page but the links page's Copy buttons' own (copy-script.ts); then checkPage. */
async function checkPortalPage(page: Page, name: string) {
  const scripts = await page.locator('script').evaluateAll((found) => found.map((script) => script.textContent));
  expect({ name, scripts: scripts.filter((text) => text !== copyScript) }).toEqual({ name, scripts: [] });
  await checkPage(page, name);
}

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
    await checkPortalPage(page, 'portal-sign-in');
    await signIn(page, affiliate.username, affiliate.password);

    expect(page.url()).toBe(`${stack.baseUrl}/affiliates/${stack.dev.app_id}/`);
    expect(await page.textContent('h1')).toBe('Dashboard');
    expect(await page.textContent('#signed-in-as')).toBe("Zoë O'Hara <QA>");
    expect(await page.textContent('#total-commission .value')).toBe('0.00 EUR');
    expect(await page.locator('svg[role=img]').count()).toBe(1);
    const cookie = (await page.context().cookies(`${stack.baseUrl}/affiliates/${stack.dev.app_id}/`)).find((c) => c.name === 'urm_aff_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: `/affiliates/${stack.dev.app_id}/` });
    await shoot(page, 'dashboard');
    await checkPortalPage(page, 'portal-dashboard');
    await page.setViewportSize({ width: 600, height: 800 });
    await shoot(page, 'dashboard-narrow');

    await Promise.all([page.waitForLoadState('load'), page.getByRole('link', { name: 'Links', exact: true }).click()]);
    await page.setViewportSize({ width: 1200, height: 800 });
    await page.getByLabel('Name').fill('Spring <promo>');
    await page.getByLabel('Landing page').fill('https://elsewhere.example/landing');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Create link' }).click()]);
    expect(await page.textContent('#field-landing_url-error')).toContain("The landing page must be on one of the application's site origins");
    await shoot(page, 'links-error');
    await checkPortalPage(page, 'portal-links-error');
    await page.getByLabel('Landing page').fill(`${stack.baseUrl}/welcome?lang=en`);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Create link' }).click()]);
    expect(await page.textContent('#link-created')).toMatch(new RegExp(`Spring <promo>.*${stack.baseUrl}/t/`));
    expect(await page.textContent('#links-list tbody th')).toBe('Spring <promo>');
    await shoot(page, 'links');
    await checkPortalPage(page, 'portal-links');

    await Promise.all([page.waitForLoadState('load'), page.getByRole('link', { name: 'Postbacks', exact: true }).click()]);
    await page.getByLabel('Postback URL').fill('https://tracker.example.com/pb?goal={event}&click={nope}');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Save URL' }).click()]);
    expect(await page.textContent('#field-postback_url-error')).toBe('The URL has an unknown placeholder {nope}.');
    // Nothing listens on 127.0.0.1:9 (the local stack's development host): the log shows a failed attempt to retry.
    const template = 'http://127.0.0.1:9/pb?goal={event}&click={sub_id}&payout={amount}&txid={event_id}';
    await page.getByLabel('Postback URL').fill(template);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Save URL' }).click()]);
    expect(await page.textContent('#signing-secret')).toMatch(/urm_postback_[A-Za-z0-9_-]{43}.*Store it now: it is not shown again\./s);
    expect(await page.textContent('#current-postback-url code')).toBe(template);
    await shoot(page, 'postbacks-secret');
    await setAffiliate(stack, { profile_id: `player-${randomUUID()}`, urm_aff_id: affiliate.affiliate_id, urm_aff: 'spring' });
    for (let tries = 0; tries < 40 && (await page.locator('#deliveries').count()) === 0; tries++) {
      await page.waitForTimeout(500);
      await page.goto(new PortalVisitor(stack.baseUrl, stack.dev.app_id).url('postbacks'));
    }
    expect(await page.textContent('#deliveries tbody tr')).toContain('Failed, will retry');
    expect(await page.locator('#signing-secret').count()).toBe(0);
    await shoot(page, 'postbacks');
    await checkPortalPage(page, 'portal-postbacks');
    expect(await page.textContent('#deliveries tbody tr td.called')).toMatch(
      /^http:\/\/127\.0\.0\.1:9\/pb\?goal=registration&click=spring&payout=&txid=[0-9a-f-]{36}$/,
    );
    await page.getByLabel('A first deposit earns you CPA').check();
    await page.getByLabel('A player deposits').check();
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Save events' }).click()]);
    expect(await page.textContent('#postbacks-done')).toContain('Postback events saved.');
    expect(await page.getByLabel('A player deposits').isChecked()).toBe(true);
    expect(await page.getByLabel('A player registers').isChecked()).toBe(true);
    await checkPortalPage(page, 'portal-postbacks-events');
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
    // An application that approves new affiliates by hand: a new one waits as pending.
    const office = localBackOffice(localClients(stack.endpoints).document);
    const manual = await createApp(office, { name: 'Manual approval casino', portalOrigin: stack.baseUrl });
    await office.apps.update(manual.app_id, { affiliate_approval: 'pending' });
    const pending = await registeredAffiliate(stack, manual.app_id, (await issueKey(office, manual.app_id, commandLineActor, 'server')).key, {
      first_name: 'Pat',
      last_name: 'Pending',
    });
    const page = await newPage();

    for (let i = 0; i < portalLimits.failuresPerAccount; i++) {
      await page.goto(locked.login_url);
      await signIn(page, locked.username, 'not the password');
    }
    expect(await page.textContent('h1')).toBe('Too many attempts');
    await shoot(page, 'locked');
    await checkPortalPage(page, 'portal-locked');

    await page.goto(pending.login_url);
    await signIn(page, pending.username, pending.password);
    expect(await page.textContent('h1')).toBe('Account awaiting approval');
    await shoot(page, 'pending');
    await checkPortalPage(page, 'portal-pending');
    await page.context().close();
  });

  test('forgot password: the mailed link opens the new-password form, which leads back to sign-in', async () => {
    const affiliate = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key);
    const page = await newPage();
    await page.goto(new PortalVisitor(stack.baseUrl, stack.dev.app_id).url('login'));
    await Promise.all([page.waitForLoadState('load'), page.getByRole('link', { name: 'Forgot your password?' }).click()]);
    await shoot(page, 'forgot');
    await checkPortalPage(page, 'portal-forgot');
    await page.getByLabel('Email').fill(affiliate.email);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Send the link' }).click()]);
    await shoot(page, 'reset-sent');
    await checkPortalPage(page, 'portal-reset-sent');

    const mail = (await sentMail(stack)).find((candidate) => candidate.destination.to.some((to) => to.includes(affiliate.email)));
    const link = /https?:\/\/[^\s]+reset\?token=[A-Za-z0-9_-]{43}/.exec(mail?.body.text ?? '')![0];
    await page.goto(link);
    await shoot(page, 'reset');
    await checkPortalPage(page, 'portal-reset');
    await page.getByLabel('New password', { exact: true }).fill('a brand new secret');
    await page.getByLabel('New password, again').fill('a brand new secret');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Save the new password' }).click()]);

    expect(await page.textContent('[role=status]')).toContain('Your password has been changed');
    await signIn(page, affiliate.email, 'a brand new secret');
    expect(await page.textContent('h1')).toBe('Dashboard');
    await page.context().close();
  });
});

describe('the affiliate portal without JavaScript', () => {
  test('with JavaScript off, an affiliate signs in, sees the dashboard, changes its period and creates a link', async () => {
    const affiliate = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key, { first_name: 'Nora', last_name: 'Script' });
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 800 } });
    const page = await context.newPage();

    await page.goto(affiliate.login_url);
    await signIn(page, affiliate.username, affiliate.password);

    expect(await page.textContent('h1')).toBe('Dashboard');
    expect(await page.textContent('#signed-in-as')).toBe('Nora Script');
    expect(await page.textContent('#total-commission .value')).toBe('0.00 EUR');
    await page.getByLabel('From', { exact: true }).fill('2026-01-01');
    await page.getByLabel('To', { exact: true }).fill('2026-01-31');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Show' }).click()]);
    expect(await page.textContent('#period-label')).toBe('1 Jan 2026 – 31 Jan 2026 (UTC)');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('link', { name: 'Links', exact: true }).click()]);
    await page.getByLabel('Name').fill('A rather long campaign name for the spring newsletter');
    await page.getByLabel('Landing page').fill(`${stack.baseUrl}/welcome`);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Create link' }).click()]);
    expect(await page.textContent('#links-list tbody th')).toBe('A rather long campaign name for the spring newsletter');
    // At a phone's width the name keeps whole words on a line: it is not squeezed to a letter per line.
    const nameBox = await page.locator('#links-list tbody th').boundingBox();
    expect(nameBox!.width).toBeGreaterThan(200);
    await context.close();
  });
});

describe('the affiliate flow end to end (issue #15, Acceptance)', () => {
  test('a click on a portal link, the attribution, a qualifying deposit and a bet/win pair show on the dashboard and in the report API to the cent', async () => {
    const affiliate = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key, { first_name: 'Flo', last_name: 'Funnel' });
    const page = await newPage();
    await page.goto(affiliate.login_url);
    await signIn(page, affiliate.username, affiliate.password);
    await page.goto(new PortalVisitor(stack.baseUrl, stack.dev.app_id).url('links'));
    await page.getByLabel('Name').fill('Acceptance');
    await page.getByLabel('Landing page').fill(`${stack.baseUrl}/`);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Create link' }).click()]);
    const clickAddress = (await page.textContent('#link-created code'))!;

    // A visitor in another browser context clicks the link and lands on the operator's page.
    const visitor = await browser.newContext();
    const landing = await visitor.newPage();
    await landing.goto(`${clickAddress}?urm_aff=spring`);
    const landed = new URL(landing.url());
    await visitor.close();
    const profile_id = `player-${randomUUID()}`;
    const now = new Date().toISOString();
    const attributed = await request(stack.baseUrl, 'POST', '/api/set_affiliate', {
      key: stack.dev.server_key,
      body: {
        app_id: stack.dev.app_id,
        profile_id,
        urm_aff_id: landed.searchParams.get('urm_aff_id'),
        urm_aff_link_id: landed.searchParams.get('urm_aff_link_id'),
        urm_aff: landed.searchParams.get('urm_aff'),
      },
    });
    const money = (event: string, amount: number) => ({ app_id: stack.dev.app_id, profile_id, event, urm_date_time: now, amount, currency: 'EUR' });
    const events = await request(stack.baseUrl, 'POST', '/events', {
      key: stack.dev.server_key,
      body: [money('Deposit', 100), money('Bet', 40), money('Win', 10)],
    });
    expect(landed.searchParams.get('urm_aff_id')).toBe(affiliate.affiliate_id);
    expect(attributed.status).toBe(200);
    expect(events.status).toBe(200);

    // The figures are up within seconds: look again a bounded number of times.
    let totals: Record<string, string> = {};
    for (let attempt = 0; attempt < 40; attempt++) {
      await page.goto(new PortalVisitor(stack.baseUrl, stack.dev.app_id).url('./'));
      totals = Object.fromEntries(
        await Promise.all(
          ['clicks', 'registrations', 'ftds', 'deposits', 'ngr', 'commission'].map(async (name) => [name, (await page.textContent(`#total-${name} .value`))!]),
        ),
      );
      if (totals.ftds === '1' && totals.clicks === '1' && totals.ngr === '30.00 EUR') break;
      await new Promise((done) => setTimeout(done, 500));
    }
    await shoot(page, 'dashboard-with-figures');
    await checkPortalPage(page, 'portal-dashboard-figures');
    const today = now.slice(0, 10);
    const report = await request(stack.baseUrl, 'GET', `/api/affiliates/${affiliate.affiliate_id}/report?from=${today.slice(0, 8)}01&to=${today}`, {
      key: stack.dev.server_key,
    });

    // Demo hybrid plan: CPA 50.00 for a first deposit of at least 20.00, plus 25 % of NGR (40 − 10 = 30.00) = 57.50.
    expect(totals).toEqual({ clicks: '1', registrations: '1', ftds: '1', deposits: '100.00 EUR', ngr: '30.00 EUR', commission: '57.50 EUR' });
    expect(await page.textContent('#links-table tbody th')).toBe('Acceptance');
    expect(report.status).toBe(200);
    expect(report.body.totals).toMatchObject({ clicks: 1, registrations: 1, ftds: 1, deposits: '100.00', ngr: '30.00', commission: '57.50' });
    await page.context().close();
  });
});
