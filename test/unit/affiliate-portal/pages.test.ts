import { createHash } from 'node:crypto';
import { copyScript } from '../../../functions/affiliate-portal/pages/copy-script';
import { describe, expect, test } from '@jest/globals';
import { h } from 'preact';
import type { AffiliateReport, FunnelFigures } from '../../../functions/domain/affiliate-program';
import { ValidationError } from '../../../functions/domain/errors';
import { linkFieldErrors } from '../../../functions/affiliate-portal/links';
import { LinksPage } from '../../../functions/affiliate-portal/pages/links';
import { reportCsv } from '../../../functions/back-office/affiliate-report-csv';
import { formatMoney } from '../../../functions/ui/format';
import { LoginPage } from '../../../functions/affiliate-portal/pages/access';
import { DashboardPage } from '../../../functions/affiliate-portal/pages/dashboard';
import { portalCss } from '../../../functions/affiliate-portal/pages/style';
import { page, portalSecurityHeaders, renderPage } from '../../../functions/affiliate-portal/render';
import { previousPeriod } from '../../../functions/affiliate-portal/dashboard';

const hostile = `<script>alert("x")</script><img src=x onerror=alert(1)>&amp;`;

const figures = (overrides: Partial<FunnelFigures> = {}): FunnelFigures => ({
  clicks: 0,
  registrations: 0,
  ftds: 0,
  qualified_ftds: 0,
  deposits: '0.00',
  withdrawals: '0.00',
  ngr: '0.00',
  cpa: '0.00',
  revshare: '0.00',
  commission: '0.00',
  registration_rate: null,
  ftd_rate: null,
  ...overrides,
});

const report: AffiliateReport = {
  affiliate_id: 'aff_1',
  currency: 'EUR',
  from: '2026-11-01',
  to: '2026-11-02',
  days: [
    { ...figures({ clicks: 1200, registrations: 3, ftds: 1, deposits: '1500.00', ngr: '-20.50', commission: '60.00' }), date: '2026-11-01' },
    { ...figures(), date: '2026-11-02' },
  ],
  links: [
    { ...figures({ clicks: 1200 }), link_id: 'lnk_1', name: hostile },
    { ...figures({ clicks: 1 }), link_id: 'lnk_2', name: '=HYPERLINK("http://evil")' },
  ],
  totals: figures({ clicks: 1200, registrations: 3, ftds: 1, deposits: '1500.00', ngr: '-20.50', commission: '60.00' }),
};

const dashboard = (name: string, appName: string) =>
  renderPage(h(DashboardPage, { appName, name, csrf: 'tok', period: { from: '2026-11-01', to: '2026-11-02' }, adjusted: false, report }));

describe('portal pages', () => {
  test('hostile affiliate, application and link names are shown as text, never as markup', () => {
    const html = dashboard(hostile, hostile);

    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script>alert(&quot;x&quot;)&lt;/script>&lt;img src=x onerror=alert(1)>&amp;amp;');
  });

  test('a login typed back into the form cannot break out of its attribute', () => {
    const html = renderPage(h(LoginPage, { csrf: 'tok', login: `"><script>x</script>`, problem: 'invalid' }));

    expect(html).toContain('value="&quot;>&lt;script>x&lt;/script>"');
    expect(html).not.toContain('<script>');
  });

  test('the dashboard shows totals with grouped digits, two decimals and the currency', () => {
    const html = dashboard('Ada', 'Casino');

    expect(html).toMatch(/id="total-clicks"[\s\S]*?1,200/);
    expect(html).toMatch(/id="total-deposits"[\s\S]*?1,500\.00 EUR/);
    expect(html).toMatch(/id="total-ngr"[\s\S]*?\u221220\.50 EUR/);
  });

  test('pages allow their one stylesheet by its hash, and no inline script or style attribute source', () => {
    const answer = page(200, h(LoginPage, { csrf: 'tok' }));
    const hash = createHash('sha256').update(portalCss, 'utf8').digest('base64');

    expect(answer.headers!['Content-Security-Policy']).toContain(`style-src 'sha256-${hash}'`);
    expect(portalSecurityHeaders['Content-Security-Policy']).not.toContain('unsafe-inline');
    expect(portalSecurityHeaders['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(portalSecurityHeaders['Content-Security-Policy']).toContain("form-action 'self'");
    expect(answer.body).toContain(`<style>${portalCss}</style>`);
    expect(answer.body).not.toMatch(/ style="/);
  });
});

describe('dashboard cards', () => {
  test('each total is compared with the period of equal length just before, and has a sparkline of its days', () => {
    const html = renderPage(
      h(DashboardPage, {
        name: 'Ada',
        csrf: 'tok',
        period: { from: '2026-11-01', to: '2026-11-02' },
        adjusted: false,
        report,
        previous: figures({ clicks: 1000, registrations: 3, ftds: 0, deposits: '2000.00', ngr: '-20.50', commission: '60.00' }),
        today: '2026-11-26',
      }),
    );

    expect(html).toMatch(/id="total-clicks"[\s\S]*?\+20 %[\s\S]*?vs previous period/);
    expect(html).toMatch(/id="total-ftds"[\s\S]*?new/);
    expect(html).toMatch(/id="total-deposits"[\s\S]*?\u221225 %/);
    expect(html).toMatch(/id="total-commission"[\s\S]*?0 %/);
    expect(html.match(/class="sparkline"/g)).toHaveLength(6);
    // The quick periods are links; none is current for a period of their own choosing.
    expect(html).toContain('href="./?from=2026-11-01&amp;to=2026-11-26">This month');
    expect(html).toContain('href="./?from=2026-10-01&amp;to=2026-10-31">Last month');
    expect(html).not.toContain('aria-current="true"');
  });

  test('without the previous period the cards show no change', () => {
    expect(dashboard('Ada', 'Casino')).not.toContain('vs previous period');
  });

  test('the previous period ends the day before and is as long', () => {
    expect(previousPeriod({ from: '2026-11-01', to: '2026-11-26' })).toEqual({ from: '2026-10-06', to: '2026-10-31' });
    expect(previousPeriod({ from: '2026-03-01', to: '2026-03-01' })).toEqual({ from: '2026-02-28', to: '2026-02-28' });
  });
});

describe('report CSV', () => {
  test('has a row per day, per link and the totals, with exact decimals; a formula-like name is defused', () => {
    const lines = reportCsv(report).trimEnd().split('\r\n');

    expect(lines[0]).toBe(
      'row,date,link_id,link_name,clicks,registrations,ftds,qualified_ftds,deposits,withdrawals,ngr,cpa,revshare,commission,currency,sub_id,registration_rate,ftd_rate',
    );
    expect(lines[1]).toBe('day,2026-11-01,,,1200,3,1,0,1500.00,0.00,-20.50,0.00,0.00,60.00,EUR,,,');
    expect(lines[4]).toBe(`link,,lnk_2,"'=HYPERLINK(""http://evil"")",1,0,0,0,0.00,0.00,0.00,0.00,0.00,0.00,EUR,,,`);
    expect(lines[5]).toBe('total,,,,1200,3,1,0,1500.00,0.00,-20.50,0.00,0.00,60.00,EUR,,,');
  });

  test('has a row per link and sub-id before the totals, and the conversion rates on every row (empty without a denominator)', () => {
    const bySubId: AffiliateReport = {
      ...report,
      days: [],
      links: [],
      sub_ids: [
        { ...figures({ clicks: 4, registrations: 1, registration_rate: '0.2500', ftd_rate: '0.0000' }), link_id: 'lnk_1', name: 'Spring', sub_id: 'spring' },
        { ...figures({ clicks: 1 }), link_id: 'lnk_1', name: 'Spring', sub_id: '-x' },
        { ...figures({ registration_rate: '0.0000' }), link_id: 'lnk_1', name: 'Spring', sub_id: '(other)' },
      ],
      totals: figures({ clicks: 5, registrations: 1, registration_rate: '0.2000', ftd_rate: '0.0000' }),
    };

    const lines = reportCsv(bySubId).trimEnd().split('\r\n');

    expect(lines.slice(1)).toEqual([
      'sub_id,,lnk_1,Spring,4,1,0,0,0.00,0.00,0.00,0.00,0.00,0.00,EUR,spring,0.2500,0.0000',
      "sub_id,,lnk_1,Spring,1,0,0,0,0.00,0.00,0.00,0.00,0.00,0.00,EUR,'-x,,",
      'sub_id,,lnk_1,Spring,0,0,0,0,0.00,0.00,0.00,0.00,0.00,0.00,EUR,(other),0.0000,',
      'total,,,,5,1,0,0,0.00,0.00,0.00,0.00,0.00,0.00,EUR,,0.2000,0.0000',
    ]);
  });

  test('money is formatted from the decimal string, not through floating point', () => {
    expect(formatMoney('12345678901234567.105', 'EUR')).toBe('12,345,678,901,234,567.10 EUR');
    expect(formatMoney('-0.00', 'EUR')).toBe('0.00 EUR');
  });
});

describe('links page', () => {
  test("the link use case's refusals are shown next to their field, in words for a person", () => {
    const errors = linkFieldErrors(
      new ValidationError(['name must be 1 to 100 characters', "landing_url must be on one of the application's site origins: https://casino.example"]),
    );

    expect(errors).toEqual({
      name: 'The name must be 1 to 100 characters.',
      landing_url: "The landing page must be on one of the application's site origins: https://casino.example.",
    });
  });

  test('a hostile link name and landing URL are shown as text', () => {
    const html = renderPage(
      h(LinksPage, {
        name: 'Ada',
        csrf: 'tok',
        siteOrigins: ['https://casino.example'],
        links: [
          {
            link_id: 'lnk_1',
            app_id: 'app_1',
            affiliate_id: 'aff_1',
            name: hostile,
            landing_url: 'https://casino.example/?q="><script>x</script>',
            created_at: '2026-11-23T10:00:00Z',
            click_address: 'https://api.example/t/lnk_1',
          },
        ],
      }),
    );

    // The page's own Copy script is the one script element; the hostile values make none.
    const others = html.replace(`<script>${copyScript}</script>`, '');
    expect(others).not.toContain('<script');
    expect(others).not.toContain('<img');
    expect(html).toContain('https://api.example/t/lnk_1');
  });
});
