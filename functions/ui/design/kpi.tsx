/**
 * A KPI card: a figure, its change against the previous period, and a
 * sparkline of its days. Server-safe (the portal renders it without script):
 * the sparkline is a small SVG polyline, decorative, since the figure and
 * its change say the same in words.
 */
import type { ComponentChildren } from 'preact';
import { seriesColors } from './tokens';

export interface Kpi {
  label: string;
  /** The figure as shown (already formatted; markup when a page needs its own hooks in it). */
  value: ComponentChildren;
  unit?: string;
  /** A short line under the figure (e.g. the day it happened). */
  note?: ComponentChildren;
  /** The same figure over the previous period of equal length, when known. */
  current?: number;
  previous?: number;
  /** One value per day, oldest first. */
  series?: readonly number[];
  /** Marks the card the page is about (e.g. the commission). */
  key?: boolean;
  /** The card's id, for a page's links and tests. */
  id?: string;
}

/** `+12.5 %`, `−3 %`, `new` (from zero), or nothing without a previous period. */
export function changeOf(current: number | undefined, previous: number | undefined): { text: string; direction: 'up' | 'down' | 'flat' } | undefined {
  if (current === undefined || previous === undefined) return undefined;
  if (previous === 0) return current === 0 ? { text: '0 %', direction: 'flat' } : { text: 'new', direction: 'up' };
  const change = ((current - previous) / Math.abs(previous)) * 100;
  const rounded = Math.abs(change) >= 10 ? Math.round(change) : Math.round(change * 10) / 10;
  if (rounded === 0) return { text: '0 %', direction: 'flat' };
  return { text: `${rounded > 0 ? '+' : '\u2212'}${Math.abs(rounded)} %`, direction: rounded > 0 ? 'up' : 'down' };
}

export function Sparkline({ values, color = seriesColors[0] }: { values: readonly number[]; color?: string }) {
  if (values.length < 2) return null;
  const max = Math.max(...values);
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  const points = values
    .map((value, index) => `${((index / (values.length - 1)) * 100).toFixed(2)},${(30 - ((value - min) / span) * 28 - 1).toFixed(2)}`)
    .join(' ');
  return (
    <svg class="sparkline" viewBox="0 0 100 30" preserveAspectRatio="none" aria-hidden="true" focusable="false">
      <polyline points={points} fill="none" stroke={color} stroke-width="2" vector-effect="non-scaling-stroke" stroke-linejoin="round" />
    </svg>
  );
}

export function KpiCard({ kpi }: { kpi: Kpi }) {
  const change = changeOf(kpi.current, kpi.previous);
  return (
    <li class={kpi.key ? 'kpi key' : 'kpi'} id={kpi.id}>
      <span class="kpi-label">{kpi.label}</span>
      <span class="kpi-value">
        {kpi.value}
        {kpi.unit && <span class="kpi-unit"> {kpi.unit}</span>}
      </span>
      {kpi.note && <span class="kpi-note">{kpi.note}</span>}
      {change && (
        <span class={`kpi-change ${change.direction}`}>
          {change.text} <span class="muted">vs previous period</span>
        </span>
      )}
      {kpi.series && <Sparkline values={kpi.series} />}
    </li>
  );
}

export function KpiCards({ kpis, label }: { kpis: readonly Kpi[]; label: string }) {
  return (
    <ul class="kpis" aria-label={label}>
      {kpis.map((kpi) => (
        <KpiCard key={kpi.label} kpi={kpi} />
      ))}
    </ul>
  );
}
