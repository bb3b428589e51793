/**
 * The checks every e2e page test makes (test/support/page-checks.ts), on pages
 * written here with known faults: a check that could not fail would pass
 * every page.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { accessibilityViolations, horizontalOverflow } from '../support/page-checks';

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchChromium();
  // axe-core's Playwright builder needs a page of a context of its own.
  page = await (await browser.newContext({ viewport: { width: 390, height: 900 } })).newPage();
});
afterAll(async () => {
  await browser?.close();
});

const shell = (body: string) => `<!doctype html><html lang="en"><head><title>Check</title></head><body><main><h1>Check</h1>${body}</main></body></html>`;

describe('the page checks', () => {
  test('report every element of a serious violation, not only the first', async () => {
    await page.setContent(shell('<img src="data:,"><img src="data:,"><button></button>'));

    const violations = await accessibilityViolations(page);

    expect(violations.filter((line) => line.startsWith('image-alt (critical)'))).toHaveLength(2);
    expect(violations.some((line) => line.startsWith('button-name (critical)'))).toBe(true);
  });

  test('find nothing on a page without faults', async () => {
    await page.setContent(shell('<p>Fine.</p><img src="data:," alt="A dot">'));

    expect(await accessibilityViolations(page)).toEqual([]);
  });

  test('measure how far a page is wider than the phone', async () => {
    await page.setContent(shell('<div style="width: 500px">wide</div>'));

    // The body's 8 px margin before it.
    expect(await horizontalOverflow(page)).toBe(8 + 500 - 390);
  });
});
