/**
 * The portals' pages inline their stylesheet in every answer (no script, no
 * cached file): the design system's portal part stays within 30 KB, and is
 * exactly what the affiliate portal and the enterprise portal inline.
 */
import { styleHash } from '../../functions/http/html';
import { describe, expect, test } from '@jest/globals';
import { portalCss, portalCssBudgetBytes, portalCssHash } from '../../functions/affiliate-portal/pages/style';
import { designStylesheet, portalStylesheet } from '../../functions/ui/design/stylesheet';
import { enterprisePageHeaders, linkRefusedPage } from '../../functions/enterprise-portal/pages';

describe("the portals' inlined stylesheet", () => {
  test('is at most 30 KB', () => {
    expect(portalCssBudgetBytes).toBe(30 * 1024);
    expect(Buffer.byteLength(portalStylesheet, 'utf8')).toBeLessThanOrEqual(portalCssBudgetBytes);
  });

  test("is the design system's, without the console's shell", () => {
    expect(portalCss).toBe(portalStylesheet);
    expect(portalStylesheet).toContain('.kpis');
    expect(portalStylesheet).toContain('header.bar');
    expect(portalStylesheet).not.toContain('.sidebar');
    expect(designStylesheet).toContain('.sidebar');
  });

  test('the enterprise portal inlines the same stylesheet, allowed by its hash and nothing else', () => {
    expect(linkRefusedPage('used')).toContain(`<style>${portalStylesheet}</style>`);
    expect(linkRefusedPage('used')).not.toMatch(/<script|\sstyle="/);
    expect(enterprisePageHeaders['Content-Security-Policy']).toContain(`style-src ${styleHash(portalStylesheet)}`);
    expect(enterprisePageHeaders['Content-Security-Policy']).not.toContain('unsafe-inline');
    expect(portalCssHash).toBe(styleHash(portalStylesheet));
  });
});
