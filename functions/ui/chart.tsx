/**
 * A report's days as an SVG bar chart: clicks, registrations and FTDs side by
 * side per day, on one scale with labelled gridlines. One component for the
 * portal's dashboard (rendered on the server, no script) and the console's
 * affiliate page (in the browser). Its colours are SVG presentation
 * attributes, which no Content-Security-Policy counts as inline style, so it
 * looks the same under either page's CSP with no stylesheet's help; its
 * classes (`grid-line`, `axis-line`, `axis-label`, `bar s1`…, `swatch`) let a
 * stylesheet restyle it. The same figures are in a table beside it for those
 * who cannot see it; the SVG has a title and a description with the totals.
 */
import { formatCount, formatDay } from './format';

export interface ChartDay {
  date: string;
  clicks: number;
  registrations: number;
  ftds: number;
}

export const chartSeries = [
  { key: 'clicks', label: 'Clicks', color: '#2348c4' },
  { key: 'registrations', label: 'Registrations', color: '#0e9384' },
  { key: 'ftds', label: 'FTDs', color: '#d9730d' },
] as const;

const ink = { grid: '#dfe3ec', axis: '#8e98ad', label: '#5b6478' } as const;

/** A round top for the scale: 1, 2, 2.5, 5 × 10^n at or above the largest value (at least 4). */
export function niceMax(value: number): number {
  if (value <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

export function DayChart({ days }: { days: ChartDay[] }) {
  const width = 960;
  const height = 300;
  const [left, right, top, bottom] = [48, 12, 12, 40];
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const max = niceMax(Math.max(0, ...days.flatMap((day) => chartSeries.map((s) => day[s.key]))));
  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(1, (slot * 0.8) / chartSeries.length);
  const round = (n: number) => Math.round(n * 10) / 10;
  const y = (value: number) => round(top + plotHeight - (value / max) * plotHeight);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((share) => Math.round(max * share));
  // Label about eight days, always the first and the last.
  const every = Math.max(1, Math.ceil(days.length / 8));
  const last = days.length - 1;
  const labelled = (i: number) => i === last || (i % every === 0 && last - i >= every * 0.75);
  const summary = chartSeries.map((s) => `${s.label}: ${formatCount(days.reduce((sum, day) => sum + day[s.key], 0))}`).join(', ');
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">
        <title id="chart-title">Clicks, registrations and FTDs by day</title>
        <desc id="chart-desc">{`Period totals. ${summary}.`}</desc>
        {ticks.map((tick) => (
          <g key={`tick-${tick}`}>
            <line class="grid-line" x1={left} x2={width - right} y1={y(tick)} y2={y(tick)} stroke={ink.grid} stroke-width="1" />
            <text class="axis-label" x={left - 8} y={y(tick) + 4} text-anchor="end" font-size="12" fill={ink.label}>
              {formatCount(tick)}
            </text>
          </g>
        ))}
        {days.map((day, i) => (
          <g key={day.date}>
            {chartSeries.map((s, j) => {
              const barTop = y(day[s.key]);
              return (
                <rect
                  key={s.key}
                  class={`bar s${j + 1}`}
                  x={round(left + i * slot + slot * 0.1 + j * barWidth)}
                  y={barTop}
                  width={round(barWidth)}
                  height={round(Math.max(0, top + plotHeight - barTop))}
                  rx={barWidth > 6 ? 2 : 0}
                  fill={s.color}
                >
                  <title>{`${formatDay(day.date)} · ${s.label}: ${formatCount(day[s.key])}`}</title>
                </rect>
              );
            })}
            {labelled(i) && (
              <text class="axis-label" x={round(left + i * slot + slot / 2)} y={height - bottom + 18} text-anchor="middle" font-size="12" fill={ink.label}>
                {formatDay(day.date).replace(/ \d{4}$/, '')}
              </text>
            )}
          </g>
        ))}
        <line class="axis-line" x1={left} x2={width - right} y1={top + plotHeight} y2={top + plotHeight} stroke={ink.axis} stroke-width="1" />
      </svg>
      <ul class="legend">
        {chartSeries.map((s) => (
          <li key={s.key}>
            <svg class="swatch" viewBox="0 0 10 10" aria-hidden="true" focusable="false">
              <rect width="10" height="10" rx="2" fill={s.color} />
            </svg>
            {s.label}
          </li>
        ))}
      </ul>
    </figure>
  );
}
