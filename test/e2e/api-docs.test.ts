/**
 * The API reference as a reader meets it: Debian's Chromium opens /docs on
 * the local stack, Swagger UI renders /openapi.json, every operation of
 * functions/manifest/operations.ts is listed, and a screenshot of the page is taken (written
 * under .urm/screenshots/, never committed).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { httpRoutes } from '../../functions/manifest/operations';
import { validateOpenApiDocument } from '../../lib/api-docs/document';
import { launchChromium } from '../support/chromium';
import { request } from '../support/http';
import { repoRoot, testStack, type TestStack } from '../support/local-stack';

const viewport = { width: 1280, height: 900 };

let stack: TestStack;
let browser: Browser;
beforeAll(async () => {
  stack = await testStack();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

interface RenderedPage {
  page: Page;
  /** Every URL the page requested. */
  requested: string[];
  /** Content-Security-Policy violations the page reported. */
  violations: () => Promise<string[]>;
}

async function openDocs(): Promise<RenderedPage> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const requested: string[] = [];
  page.on('request', (sent) => requested.push(sent.url()));
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  const answer = await page.goto(`${stack.baseUrl}/docs`);
  expect(answer?.status()).toBe(200);
  // Swagger UI has rendered when the operations of the document are on the page.
  await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  return { page, requested, violations: () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations) };
}

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('/docs in Chromium', () => {
  test('renders the reference with every operation listed, loading nothing from outside the stack, and screenshots it', async () => {
    const { page, requested, violations } = await openDocs();

    const listed = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => ({
        method: block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '',
        path: block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '',
      })),
    );
    const screenshot = join(repoRoot, '.urm', 'screenshots', 'api-docs.png');
    mkdirSync(join(repoRoot, '.urm', 'screenshots'), { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: true });

    const rendered = new Set(listed.map((operation) => `${operation.method} ${operation.path}`));
    for (const operation of httpRoutes().filter((candidate) => !candidate.portalPage)) {
      expect(rendered.has(`${operation.method} ${operation.path}`)).toBeTruthy();
    }
    expect((await page.textContent('.info .title')) ?? '').toMatch(/urm/);
    const origin = new URL(stack.baseUrl).origin;
    expect(requested.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin)).toEqual([]);
    expect(requested.includes(`${origin}/openapi.json`)).toBeTruthy();
    expect(await violations()).toEqual([]);
    const png = readFileSync(screenshot);
    const size = pngSize(png);
    expect(size.width).toBe(viewport.width);
    expect(size.height >= viewport.height).toBeTruthy();
    expect(png.length > 20_000).toBeTruthy();
    await page.context().close();
  });

  test('an operation expands to its parameters and responses', async () => {
    const { page } = await openDocs();
    const operation = httpRoutes().find((candidate) => candidate.path.includes('{')) ?? httpRoutes()[0];

    await page.click(`.opblock-summary-path[data-path="${operation.path}"]`);
    const body = page.locator('.opblock.is-open .opblock-body');
    await body.waitFor();

    expect(await body.locator('.responses-wrapper').isVisible()).toBeTruthy();
    expect((await body.textContent()) ?? '').toMatch(/200/);
    await page.context().close();
  });

  test('"Try it out" calls the local API from the page: without a key, the documented 403', async () => {
    const { page, violations } = await openDocs();
    await page.click('.opblock-summary-path[data-path="/profiles/{profile_id}"]');
    const body = page.locator('.opblock.is-open .opblock-body');

    await body.locator('.try-out__btn').click();
    await body.locator('input[placeholder="profile_id"]').fill('player-1842');
    await body.locator('input[placeholder="app_id"]').fill(stack.dev.app_id);
    await body.locator('.execute').click();
    const status = body.locator('.live-responses-table .response .response-col_status');
    await status.waitFor();

    expect((await status.textContent())?.trim()).toBe('403');
    expect((await body.locator('.live-responses-table').textContent()) ?? '').toMatch(/Forbidden/);
    expect(await violations()).toEqual([]);
    await page.context().close();
  });
});

test('/openapi.json is the document the page renders, valid, naming the local stack as its server', async () => {
  const answer = await request(stack.baseUrl, 'GET', '/openapi.json');

  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  await validateOpenApiDocument(answer.body);
  expect(answer.body.servers).toEqual([{ url: stack.baseUrl }]);
});
