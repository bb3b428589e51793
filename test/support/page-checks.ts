/**
 * What every e2e page test checks of the page it has open, at a phone's
 * width (390 px) and a laptop's (1366 px):
 * - axe-core finds no serious or critical accessibility violation;
 * - the page does not scroll sideways (a table may, inside its own labelled
 *   region, which the document's width does not count);
 * - a full-page screenshot, `.urm/screenshots/<name>-390.png` and `-1366.png`,
 *   to look at.
 * The viewport is put back as it was, so the test goes on where it was.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect } from '@jest/globals';
import type { Page } from 'playwright-core';
import { repoRoot } from './local-stack';

export const screenshotDir = join(repoRoot, '.urm', 'screenshots');
export const checkedWidths = [390, 1366] as const;

/** The serious and critical violations on the page, one line each: rule, impact, and where. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    // Every node of a violation, one of the rest: axe's selectors for every passing node are most of its time.
    .options({ resultTypes: ['violations'] })
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')}: ${node.failureSummary ?? violation.help}`),
    );
}

/**
 * How far the document is wider than the viewport, in CSS pixels (0 when it fits), once laid out at the viewport's
 * size: right after a resize, a chart or a table may take some frames to follow (more on a busy machine), so it is
 * given up to 5 s to fit before the overflow is read.
 */
export async function horizontalOverflow(page: Page): Promise<number> {
  await page
    .waitForFunction(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth, undefined, { polling: 'raf', timeout: 5_000 })
    .catch(() => {});
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth));
}

/** Waits until the browser has laid out and painted the page at its new size (two animation frames, no timer). */
const settled = (page: Page) => page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));

/** axe, no sideways scroll and a screenshot, at 390 and 1366 px; `name` names the screenshots. */
export async function checkPage(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  const original = page.viewportSize();
  try {
    for (const width of checkedWidths) {
      await page.setViewportSize({ width, height: 900 });
      await settled(page);
      await page.screenshot({ path: join(screenshotDir, `${name}-${width}.png`), fullPage: true });
      expect({ width, overflow: await horizontalOverflow(page) }).toEqual({ width, overflow: 0 });
      expect({ width, violations: await accessibilityViolations(page) }).toEqual({ width, violations: [] });
    }
  } finally {
    if (original) await page.setViewportSize(original);
  }
}
