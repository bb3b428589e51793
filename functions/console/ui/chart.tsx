/**
 * The report's days as an SVG bar chart (clicks, registrations and FTDs side
 * by side, one scale, labelled gridlines), drawn as the affiliate portal's
 * dashboard draws it. The same figures are in the table under it, for those
 * who cannot see the chart; the SVG has a title and a description with the
 * totals. Colours come from console.css (no inline style under the CSP).
 */
import { formatCount, formatDay } from './format';

export interface ChartDay {
  date: string;
  clicks: number;
  registrations: number;
  ftds: number;
}

const series = [
  { key: 'clicks', label: 'Clicks' },
  { key: 'registrations', label: 'Registrations' },
  { key: 'ftds', label: 'FTDs' },
] as const;

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
  const max = niceMax(Math.max(0, ...days.flatMap((day) => series.map((s) => day[s.key]))));
  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(1, (slot * 0.8) / series.length);
  const round = (n: number) => Math.round(n * 10) / 10;
  const y = (value: number) => round(top + plotHeight - (value / max) * plotHeight);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((share) => Math.round(max * share));
  const every = Math.max(1, Math.ceil(days.length / 8));
  const last = days.length - 1;
  const labelled = (i: number) => i === last || (i % every === 0 && last - i >= every * 0.75);
  const summary = series.map((s) => `${s.label}: ${formatCount(days.reduce((sum, day) => sum + day[s.key], 0))}`).join(', ');
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">
        <title id="chart-title">Clicks, registrations and FTDs by day</title>
        <desc id="chart-desc">{`Period totals. ${summary}.`}</desc>
        {ticks.map((tick) => (
          <g key={`tick-${tick}`}>
            <line class="grid-line" x1={left} x2={width - right} y1={y(tick)} y2={y(tick)} />
            <text class="axis-label" x={left - 8} y={y(tick) + 4} text-anchor="end">
              {formatCount(tick)}
            </text>
          </g>
        ))}
        {days.map((day, i) => (
          <g key={day.date}>
            {series.map((s, j) => {
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
                >
                  <title>{`${formatDay(day.date)} · ${s.label}: ${formatCount(day[s.key])}`}</title>
                </rect>
              );
            })}
            {labelled(i) && (
              <text class="axis-label" x={round(left + i * slot + slot / 2)} y={height - bottom + 18} text-anchor="middle">
                {formatDay(day.date).replace(/ \d{4}$/, '')}
              </text>
            )}
          </g>
        ))}
        <line class="axis-line" x1={left} x2={width - right} y1={top + plotHeight} y2={top + plotHeight} />
      </svg>
      <ul class="legend">
        {series.map((s, i) => (
          <li key={s.key}>
            <span class={`swatch s${i + 1}`} aria-hidden="true" />
            {s.label}
          </li>
        ))}
      </ul>
    </figure>
  );
}
