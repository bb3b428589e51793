/**
 * The period's days as a server-rendered SVG bar chart: clicks, registrations
 * and FTDs side by side per day, on one scale with labelled gridlines. No
 * script; the same figures are in the table by day for those who cannot see it.
 */
import type { FunnelFigures } from '../../domain/affiliate-program';
import { formatCount, formatDay } from '../format';

const series = [
  { key: 'clicks', label: 'Clicks', color: '#2348c4' },
  { key: 'registrations', label: 'Registrations', color: '#0e9384' },
  { key: 'ftds', label: 'FTDs', color: '#d9730d' },
] as const;

/** A round top for the scale: 1, 2, 5 × 10^n at or above the largest value. */
export function niceMax(value: number): number {
  if (value <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

export function DayChart(props: { days: (Pick<FunnelFigures, 'clicks' | 'registrations' | 'ftds'> & { date: string })[] }) {
  const width = 960;
  const height = 300;
  const left = 48;
  const right = 12;
  const top = 12;
  const bottom = 40;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const max = niceMax(Math.max(0, ...props.days.flatMap((day) => series.map((s) => day[s.key]))));
  const slot = plotWidth / Math.max(1, props.days.length);
  const barWidth = Math.max(1, (slot * 0.8) / series.length);
  const round = (n: number) => Math.round(n * 10) / 10;
  const y = (value: number) => round(top + plotHeight - (value / max) * plotHeight);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((share) => Math.round(max * share));
  // Label about eight days, always the first and the last.
  const every = Math.max(1, Math.ceil(props.days.length / 8));
  const last = props.days.length - 1;
  const labelled = (i: number) => i === last || (i % every === 0 && last - i >= every * 0.75);
  const summary = series.map((s) => `${s.label}: ${formatCount(props.days.reduce((sum, day) => sum + day[s.key], 0))}`).join(', ');
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">
        <title id="chart-title">Clicks, registrations and FTDs by day</title>
        <desc id="chart-desc">{`Period totals. ${summary}.`}</desc>
        {ticks.map((tick) => (
          <g key={`tick-${tick}`}>
            <line x1={left} x2={width - right} y1={y(tick)} y2={y(tick)} stroke="#dfe3ec" stroke-width="1" />
            <text x={left - 8} y={y(tick) + 4} text-anchor="end" font-size="12" fill="#5b6478">
              {formatCount(tick)}
            </text>
          </g>
        ))}
        {props.days.map((day, i) => (
          <g key={day.date}>
            {series.map((s, j) => {
              const value = day[s.key];
              const barTop = y(value);
              return (
                <rect
                  x={round(left + i * slot + slot * 0.1 + j * barWidth)}
                  y={barTop}
                  width={round(barWidth)}
                  height={round(Math.max(0, top + plotHeight - barTop))}
                  fill={s.color}
                  rx={barWidth > 6 ? 2 : 0}
                >
                  <title>{`${formatDay(day.date)} · ${s.label}: ${formatCount(value)}`}</title>
                </rect>
              );
            })}
            {labelled(i) && (
              <text x={round(left + i * slot + slot / 2)} y={height - bottom + 18} text-anchor="middle" font-size="12" fill="#5b6478">
                {formatDay(day.date).replace(/ \d{4}$/, '')}
              </text>
            )}
          </g>
        ))}
        <line x1={left} x2={width - right} y1={top + plotHeight} y2={top + plotHeight} stroke="#8e98ad" stroke-width="1" />
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
