/**
 * The "By sub-id" tables and the conversion rates as a person sees them, in
 * Chromium at 390 and 1366 px: the affiliate's portal dashboard and the
 * operator's console report. checkPage (axe, no sideways scroll) on each;
 * screenshots go to .urm/screenshots/ (git-ignored). The funnel is fed through
 * the consumer's handler in process, as the stream delivers records.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { DynamoAppStore } from '../../functions/adapters/dynamo-app-store';
import { DynamoPostbackSettings } from '../../functions/adapters/dynamo-postback-store';
import { DynamoFunnelStore } from '../../functions/adapters/dynamo-funnel-store';
import { DynamoRejectionLog } from '../../functions/adapters/dynamo-rejection-log';
import { makeCountFunnelHandler } from '../../functions/consumers/count-funnel/make-handler';
import { tables } from '../../functions/manifest/resources';
import { logger } from '../../functions/runtime/logger';
import { localClients } from '../../lib/local/stack';
import { launchChromium } from '../support/chromium';
import { consoleApp, signedInPage, type ConsoleApp } from '../support/console-browser';
import { kinesisEvent, sequenceNumbers } from '../support/kinesis-event';
import { context } from '../support/lambda';
import { repoRoot, testStack, type TestStack } from '../support/local-stack';
import { checkPage } from '../support/page-checks';
import { registeredAffiliate } from '../support/portal';

const screenshots = join(repoRoot, '.urm', 'screenshots');
let stack: TestStack;
let browser: Browser;
let app: ConsoleApp;
let affiliate: Awaited<ReturnType<typeof registeredAffiliate>>;

beforeAll(async () => {
  jest.spyOn(logger, 'info').mockImplementation(() => {});
  stack = await testStack();
  browser = await launchChromium();
  mkdirSync(screenshots, { recursive: true });
  app = await consoleApp(stack, 'Sub-id casino');
  await app.office.apps.update(app.appId, { affiliate_approval: 'approve' });
  affiliate = await registeredAffiliate(stack, app.appId, app.serverKey);
  await feedFunnel(app.appId, affiliate.affiliate_id);
});
afterAll(async () => {
  await browser?.close();
});

/** Clicks with sub-ids `facebook-spring` (6) and `newsletter` (3), and one registration from each. */
async function feedFunnel(appId: string, affiliateId: string) {
  const { document } = localClients(stack.endpoints);
  const handle = makeCountFunnelHandler({
    store: new DynamoFunnelStore(document, tables.funnel.localName),
    apps: new DynamoAppStore(document, tables.apps.localName),
    rejections: new DynamoRejectionLog(document, tables.rejections.localName),
    postbackSettings: new DynamoPostbackSettings(document, tables.affiliates.localName),
    now: () => new Date(),
  });
  const at = new Date().toISOString();
  const subIds = [...Array(6).fill('facebook-spring'), ...Array(3).fill('newsletter')];
  const clicks = subIds.map((subId, n) => ({
    kind: 'click' as const,
    record: {
      app_id: appId,
      profile_id: `urm-visitor-${n}`,
      urm_insert_id: randomUUID(),
      urm_date_time: at,
      affiliate_id: affiliateId,
      link_id: 'Qx7RmT2vLp9K',
      sub_id: subId,
    },
  }));
  const attributions = ['facebook-spring', 'newsletter'].map((subId) => ({
    kind: 'event' as const,
    record: {
      app_id: appId,
      profile_id: `player-${randomUUID()}`,
      urm_insert_id: randomUUID(),
      urm_date_time: at,
      event: 'urm_affiliate_attributed',
      urm_aff_id: affiliateId,
      urm_aff_link_id: 'Qx7RmT2vLp9K',
      urm_aff: subId,
    },
  }));
  const records = [...clicks, ...attributions];
  const seqs = sequenceNumbers(records.length, BigInt(Date.now()) * 1_000_000n);
  const response = await handle(
    kinesisEvent(records.map((record, i) => ({ ...record, shardId: `shardId-e2e-${affiliateId}`, sequenceNumber: seqs[i] }))),
    context(),
  );
  expect(response).toEqual({ batchItemFailures: [] });
}

const shoot = (page: Page, name: string) => page.screenshot({ path: join(screenshots, `sub-ids-${name}.png`), fullPage: true });

describe('sub-ids in Chromium', () => {
  test.each([390, 1366])('the portal dashboard at %i px has a By sub-id table and the conversion rates', async (width) => {
    const page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
    await page.goto(affiliate.login_url);
    await page.getByLabel('Username or email').fill(affiliate.username);
    await page.getByLabel('Password').fill(affiliate.password);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in' }).click()]);

    await page.getByRole('heading', { name: 'By sub-id', level: 2 }).waitFor();
    const table = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Sub-id' }) });
    // Each sub-id with its link's name (here the id: the link has no record) under it.
    expect(await table.getByRole('rowheader').allTextContents()).toEqual(['facebook-springQx7RmT2vLp9K', 'newsletterQx7RmT2vLp9K']);
    expect(await table.getByRole('row', { name: /facebook-spring/ }).textContent()).toContain('16.67 %');
    expect(await page.textContent('#conversion')).toContain('Registrations per click: 22.22 %');
    await shoot(page, `portal-${width}`);
    await checkPage(page, `portal-sub-ids-${width}`);
    await page.context().close();
  });

  test.each([390, 1366])('the console affiliate report at %i px has a By sub-id table and the conversion rates', async (width) => {
    const page = await signedInPage(stack, browser, app, 'viewer', `/console/affiliates/${affiliate.affiliate_id}`);
    await page.setViewportSize({ width, height: 900 });

    await page.getByRole('heading', { name: 'By sub-id', level: 3 }).waitFor();
    const table = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Sub-id' }) });
    // Each sub-id with its link's name (here the id: the link has no record) under it.
    expect(await table.getByRole('rowheader').allTextContents()).toEqual(['facebook-springQx7RmT2vLp9K', 'newsletterQx7RmT2vLp9K']);
    expect(await page.textContent('.report-rates')).toContain('Registrations per click: 22.22 %');
    await shoot(page, `console-${width}`);
    await checkPage(page, `console-sub-ids-${width}`);
    await page.context().close();
  });
});
