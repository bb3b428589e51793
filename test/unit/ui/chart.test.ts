/** The chart by day the portal and the console share (functions/ui/chart.tsx), rendered as the portal renders it. */
import { describe, expect, test } from '@jest/globals';
import { h } from 'preact';
import { render } from 'preact-render-to-string';
import { chartSeries, DayChart, niceMax, type ChartDay } from '../../../functions/ui/chart';

const day = (date: string, clicks: number, registrations = 0, ftds = 0): ChartDay => ({ date, clicks, registrations, ftds });
const html = (days: ChartDay[]) => render(h(DayChart, { days }));

describe('the chart by day', () => {
  test('scales to a round top at or above the largest value, never below 4', () => {
    expect([0, 3, 4, 5, 11, 120, 260, 999, 1000].map(niceMax)).toEqual([4, 4, 4, 5, 20, 200, 500, 1000, 1000]);
  });

  test('draws a bar per series and day, each titled with its figure, and says the totals for those who cannot see it', () => {
    const svg = html([day('2026-11-01', 1200, 3, 1), day('2026-11-02', 5)]);

    expect(svg.match(/<rect class="bar s\d"/g)).toHaveLength(6);
    expect(svg).toContain('<title>1 Nov 2026 · Clicks: 1,200</title>');
    expect(svg).toContain('Period totals. Clicks: 1,205, Registrations: 3, FTDs: 1.');
  });

  test('colours itself with presentation attributes, which no CSP blocks, and never a style attribute', () => {
    const svg = html([day('2026-11-01', 1, 1, 1)]);

    for (const series of chartSeries) expect(svg.split(`fill="${series.color}"`).length - 1).toBe(2);
    expect(svg).not.toMatch(/ style="/);
  });

  test('labels about eight days of a long period, always the first and the last', () => {
    const days = Array.from({ length: 30 }, (_, i) => day(`2026-11-${String(i + 1).padStart(2, '0')}`, i));

    const labels = [...html(days).matchAll(/text-anchor="middle"[^>]*>([^<]+)</g)].map((match) => match[1]);

    expect(labels[0]).toBe('1 Nov');
    expect(labels.at(-1)).toBe('30 Nov');
    expect(labels.length).toBeLessThanOrEqual(9);
  });
});
