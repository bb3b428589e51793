/**
 * The console in headless Chromium for the e2e tests: a fresh application
 * with an admin, a marketer and a viewer, each signed in as a person is
 * (sign_in's link opened in a browser context of its own), screenshots under
 * .urm/screenshots, and a forged POST from the page with the session's CSRF token.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import type { BackOffice } from '../../functions/back-office/ports';
import { commandLineActor } from '../../functions/domain/audit';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { request } from './http';
import { repoRoot, type TestStack } from './local-stack';

export type ConsoleRole = 'admin' | 'marketer' | 'viewer';

export interface ConsoleApp {
  appId: string;
  serverKey: string;
  office: BackOffice;
  users: Record<ConsoleRole, string>;
}

export async function consoleApp(stack: TestStack, name: string): Promise<ConsoleApp> {
  const office = localBackOffice(localClients(stack.endpoints).document);
  const created = await createApp(office, { name: `${name} ${randomUUID().slice(0, 8)}`, portalOrigin: stack.baseUrl });
  const serverKey = (await issueKey(office, created.app_id, commandLineActor, 'server')).key;
  const signUp = await request(stack.baseUrl, 'POST', '/enterprises/sign_up', {
    key: serverKey,
    body: {
      app_id: created.app_id,
      users: [
        { email: `ada-${randomUUID()}@operator.example`, first_name: 'Ada', last_name: 'Admin' },
        { email: `mia-${randomUUID()}@operator.example`, first_name: 'Mia', last_name: 'Marketer', role: 'marketer' },
        { email: `vic-${randomUUID()}@operator.example`, first_name: 'Victor', last_name: 'Viewer', role: 'viewer' },
      ],
    },
  });
  expect(signUp.status).toBe(200);
  const [admin, marketer, viewer] = signUp.body.users.map((user: { user_id: string }) => user.user_id) as string[];
  return { appId: created.app_id, serverKey, office, users: { admin: admin!, marketer: marketer!, viewer: viewer! } };
}

/** A browser context of its own, signed in through sign_in's link, on `path` (Home, the landing page, first). */
export async function signedInPage(stack: TestStack, browser: Browser, app: ConsoleApp, who: ConsoleRole, path?: string): Promise<Page> {
  const signIn = await request(stack.baseUrl, 'POST', '/enterprises/sign_in', { key: app.serverKey, body: { app_id: app.appId, user_id: app.users[who] } });
  expect(signIn.status).toBe(200);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(signIn.body.redirect_url as string);
  // The sign-in lands on /console/: Home, the application's figures.
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  if (path) await page.goto(`${stack.baseUrl}${path}`);
  return page;
}

const screenshots = join(repoRoot, '.urm', 'screenshots');

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: join(screenshots, `console-${name}.png`), fullPage: true });
}

/** A POST made by script in the page, with the session's cookie and CSRF token: what a user could forge past the UI. */
export async function forgedPost(page: Page, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ path, body }) => {
      const { csrf_token: csrf } = (await fetch('/console/api/session').then((r) => r.json())) as { csrf_token: string };
      const answer = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf }, body: JSON.stringify(body) });
      return { status: answer.status, body: (await answer.json()) as unknown };
    },
    { path, body },
  );
}
