/** Rules only the segments pages need, on top of the design system's components (joined into the one stylesheet by ../stylesheet.ts). */
export const segmentsCss = `
.segment-name { display: flex; flex-direction: column; gap: 2px; min-width: 8rem; }
.segment-name small { font-weight: 400; overflow-wrap: anywhere; }
.segment-status { display: inline-flex; flex-wrap: wrap; gap: var(--urm-space-1) var(--urm-space-2); align-items: center; }
.segment-status .muted { font-size: var(--urm-text-sm); }
.segment-page { display: grid; gap: var(--urm-space-4); min-width: 0; }
.segment-page > * { min-width: 0; margin: 0; }
.segment-page .kpis { grid-template-columns: repeat(auto-fit, minmax(min(100%, 10rem), 1fr)); }
.segment-actions { display: flex; flex-direction: column; align-items: flex-end; gap: var(--urm-space-2); }
.backfill-progress { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-3); align-items: center; margin: var(--urm-space-3) 0; }
.backfill-progress progress { flex: 1 1 14rem; height: 0.75rem; accent-color: var(--urm-accent); }
.backfill-progress span { font-variant-numeric: tabular-nums; font-weight: 600; }
.condition-sentences, .condition-sentences ul { list-style: none; margin: 0; padding: 0; }
.condition-sentences ul { margin: var(--urm-space-1) 0 0 var(--urm-space-2); padding-left: var(--urm-space-3); border-left: 2px solid var(--urm-accent-soft); }
.condition-sentences li { padding: var(--urm-space-1) 0; overflow-wrap: anywhere; }
.condition-sentences span.combinator { font-weight: 600; }
.condition-sentences li > span:not(.combinator) { display: inline-block; padding: 2px var(--urm-space-2); background: var(--urm-accent-soft); color: var(--urm-accent-strong); border-radius: var(--urm-radius-sm); }
.member-email { display: inline-block; min-width: 12rem; overflow-wrap: anywhere; }
.condition-reference { margin-top: var(--urm-space-2); font-size: var(--urm-text-sm); }
.condition-reference summary { cursor: pointer; color: var(--urm-accent-strong); }
.condition-reference dl { display: grid; grid-template-columns: minmax(0, 1fr); gap: var(--urm-space-1) var(--urm-space-3); margin: var(--urm-space-2) 0 0; }
@media (min-width: 48rem) { .condition-reference dl { grid-template-columns: 9rem minmax(0, 1fr); } }
.condition-reference dt { font-weight: 600; }
.condition-reference dd { margin: 0 0 var(--urm-space-1); overflow-wrap: anywhere; }
.condition-reference code { font-size: var(--urm-text-xs); }
.condition-changed { margin: var(--urm-space-3) 0 0; font-size: var(--urm-text-sm); }
.condition-json { margin-top: var(--urm-space-2); }
.condition-json summary { cursor: pointer; color: var(--urm-accent-strong); }
.condition-json pre { margin: var(--urm-space-2) 0 0; padding: var(--urm-space-3); background: var(--urm-surface-sunken); border-radius: var(--urm-radius-md); overflow-x: auto; max-width: 100%; font-size: var(--urm-text-sm); }
.segment-form { max-width: 56rem; }
.segment-form .form-row { display: grid; gap: 0 var(--urm-space-4); grid-template-columns: repeat(auto-fit, minmax(min(100%, 16rem), 1fr)); }
.example-buttons .muted { font-size: var(--urm-text-sm); }
.example-buttons { display: flex; flex-wrap: wrap; gap: var(--urm-space-1) var(--urm-space-2); align-items: center; margin-bottom: var(--urm-space-2); }
textarea.condition-editor { min-height: 16rem; font-size: var(--urm-text-sm); line-height: 1.5; tab-size: 2; }
.nowrap { white-space: nowrap; }
`;
