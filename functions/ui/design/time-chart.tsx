/**
 * A chart by day (browser only): uPlot draws it on a canvas (chosen for size:
 * about 20 kB gzipped, against Chart.js's 70), loaded on first use so that no
 * page pays for it before it shows a chart. The same figures are in a table
 * under "Show as a table", and the figure's label says what it shows and the
 * totals, so the chart is never the only way to read them. Days are UTC days,
 * as every report's are.
 */
import { TableRegion } from './page';
import type uPlot from 'uplot';
import { useEffect, useRef, useState } from 'preact/hooks';
import { colors, seriesColors } from './tokens';

export interface ChartSeries {
  label: string;
  /** One value per day, in the order of `days`. */
  values: readonly number[];
}

const dayLabel = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const secondsOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
const number = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });

export function TimeChart({
  title,
  days,
  series,
  kind = 'line',
  height = 240,
  format = (value: number) => number.format(value),
}: {
  title: string;
  /** `YYYY-MM-DD`, oldest first. */
  days: readonly string[];
  series: readonly ChartSeries[];
  kind?: 'line' | 'bars';
  height?: number;
  format?: (value: number) => string;
}) {
  const target = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const element = target.current;
    if (!element || days.length === 0) return undefined;
    let chart: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let cancelled = false;
    import('uplot').then(
      ({ default: UPlot }) => {
        if (cancelled) return;
        const bars = kind === 'bars' ? UPlot.paths.bars?.({ size: [0.8 / Math.max(1, series.length), 40], align: 0 }) : undefined;
        const options: uPlot.Options = {
          width: Math.max(200, element.clientWidth),
          height,
          legend: { show: false },
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 4] } },
          axes: [
            { stroke: colors.muted, grid: { show: false }, values: (_u, ticks) => ticks.map((tick) => dayLabel.format(new Date(tick * 1000))) },
            { stroke: colors.muted, grid: { stroke: colors.line, width: 1 }, values: (_u, ticks) => ticks.map(format), size: 56 },
          ],
          series: [
            {},
            ...series.map((one, index) => ({
              label: one.label,
              stroke: seriesColors[index % seriesColors.length],
              fill: kind === 'bars' ? seriesColors[index % seriesColors.length] : undefined,
              width: kind === 'bars' ? 0 : 2,
              paths: bars,
              points: { show: days.length <= 31 && kind === 'line' },
            })),
          ],
        };
        chart = new UPlot(options, [days.map(secondsOf), ...series.map((one) => [...one.values])], element);
        observer = new ResizeObserver(() => chart?.setSize({ width: Math.max(200, element.clientWidth), height }));
        observer.observe(element);
      },
      () => setFailed(true),
    );
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [days, series, kind, height]);

  const totals = series.map((one) => `${one.label} ${format(one.values.reduce((sum, value) => sum + value, 0))}`).join(', ');
  return (
    <figure class="chart" aria-label={`${title}: ${days.length} days. Totals: ${totals}.`}>
      {days.length === 0 ? (
        <p class="muted">No days in this period.</p>
      ) : (
        <div ref={target} class="chart-canvas" aria-hidden="true">
          {failed && <p class="muted">The chart could not load; the table below has its figures.</p>}
        </div>
      )}
      <ul class="legend">
        {series.map((one, index) => (
          <li key={one.label}>
            <span class="swatch" data-series={index % seriesColors.length} aria-hidden="true" />
            {one.label}
          </li>
        ))}
      </ul>
      <details class="fallback">
        <summary>Show as a table</summary>
        <TableRegion label={`${title} as a table (scrolls)`}>
          <table>
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                {series.map((one) => (
                  <th scope="col" class="num" key={one.label}>
                    {one.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((day, row) => (
                <tr key={day}>
                  <th scope="row">{day}</th>
                  {series.map((one) => (
                    <td class="num" key={one.label}>
                      {format(one.values[row] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      </details>
    </figure>
  );
}
