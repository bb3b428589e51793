/** Rules only the broadcasts pages need, on top of the design system's components (joined into the one stylesheet by ../stylesheet.ts). */
export const broadcastsCss = `
.broadcast-progress { display: inline-flex; flex-wrap: wrap; gap: var(--urm-space-1) var(--urm-space-2); align-items: center; min-width: 9rem; }
.broadcast-progress progress { flex: 1 1 6rem; min-width: 5rem; height: 0.6rem; accent-color: var(--urm-accent); }
.broadcast-progress span { font-variant-numeric: tabular-nums; font-size: var(--urm-text-sm); white-space: nowrap; }
.broadcast-page { display: grid; gap: var(--urm-space-4); min-width: 0; }
.broadcast-page > * { min-width: 0; margin: 0; }
.broadcast-page .kpis { grid-template-columns: repeat(auto-fit, minmax(min(100%, 9rem), 1fr)); }
.broadcast-progress-card { display: grid; gap: var(--urm-space-2); }
.broadcast-progress-card .broadcast-progress { display: flex; }
.broadcast-progress-card .broadcast-progress progress { flex: 1 1 14rem; height: 0.75rem; }
.broadcast-progress-card .broadcast-progress span { font-size: var(--urm-text-base); font-weight: 600; }
.broadcast-actions { display: flex; flex-direction: column; align-items: flex-end; gap: var(--urm-space-2); }
.broadcast-form { display: grid; gap: var(--urm-space-4); max-width: 56rem; }
.broadcast-form > * { margin: 0; }
.broadcast-when { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-5); }
.broadcast-when label { display: inline-flex; gap: var(--urm-space-2); align-items: center; }
.broadcast-reasons { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--urm-space-1); }
.broadcast-reasons li { display: flex; justify-content: space-between; gap: var(--urm-space-3); max-width: 24rem; font-variant-numeric: tabular-nums; }
.broadcast-details { display: grid; grid-template-columns: minmax(0, 1fr); gap: var(--urm-space-1) var(--urm-space-4); }
@media (min-width: 48rem) { .broadcast-details { grid-template-columns: 9rem minmax(0, 1fr); } }
.broadcast-details dt { font-weight: 600; }
.broadcast-details dd { margin: 0 0 var(--urm-space-2); overflow-wrap: anywhere; }
`;
