/** Rules only the audience pages need, on top of the design system's components (joined into the one stylesheet by ../stylesheet.ts). */
export const audienceCss = `
.search-row { display: flex; flex-wrap: wrap; gap: var(--urm-space-2); align-items: flex-start; }
.search-row > input { flex: 1 1 14rem; width: auto; min-width: 0; }
.players-list { max-width: 80rem; }
.player-search label { display: block; font-weight: 600; margin-bottom: var(--urm-space-2); }
.player-search .search-hint { display: block; color: var(--urm-muted); font-size: var(--urm-text-sm); font-weight: 400; margin-top: var(--urm-space-1); }
.players-list .table-count { margin: 0; color: var(--urm-muted); font-size: var(--urm-text-sm); }
/* Cells keep their line and the table scrolls in its region, rather than an email broken into four lines; a long id wraps. */
.players-list .data-table td { white-space: nowrap; }
.players-list .data-table tbody th { min-width: 8rem; }
.players-search { padding: var(--urm-space-4) var(--urm-space-5); }
.player-summary { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-4); align-items: center; }
.player-money .kpis { grid-template-columns: repeat(auto-fit, minmax(min(100%, 9rem), 1fr)); }
/* Player 360: activity above the money, on one track so their cards line up (one band of eight wrapped their figures). */
.player-overview .kpis { grid-template-columns: repeat(auto-fill, minmax(min(100%, 10.5rem), 1fr)); }
/* The send gate's answer per channel: its own line under the badges, a dot of the verdict's tone before each. */
.player-gate { flex-basis: 100%; list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: var(--urm-space-1) var(--urm-space-4); font-size: var(--urm-text-md); color: var(--urm-ink-soft); }
.player-gate li { overflow-wrap: anywhere; padding-left: 1rem; text-indent: -1rem; }
.player-gate li::before { content: ""; display: inline-block; width: 0.5rem; height: 0.5rem; border-radius: 50%; margin-right: 0.5rem; background: var(--urm-muted); vertical-align: 0.1em; }
.player-gate li.tone-success::before { background: var(--urm-success); }
.player-gate li.tone-warning::before { background: var(--urm-warning); }
.player-gate li.tone-danger::before { background: var(--urm-danger); }
.player-id code { font-size: var(--urm-text-sm); overflow-wrap: anywhere; }
a.player-attribution { text-decoration: none; }
a.player-attribution:hover { text-decoration: underline; }
h3.attributes-group { margin: var(--urm-space-5) 0 var(--urm-space-2); font-size: var(--urm-text-md); }
.attributes-none { margin-top: 0; }
.timeline-filter-fields { display: flex; flex-wrap: wrap; gap: 0 var(--urm-space-3); align-items: flex-end; }
/* The name takes the room; a date is a date's width, wrapped or not. */
.timeline-filter-fields .field { flex: 0 1 10.5rem; }
.timeline-filter-fields .field:first-child { flex: 1 1 16rem; }
.timeline-filter-actions { margin-bottom: var(--urm-space-4); }
.player-layout { display: grid; gap: 0 var(--urm-space-4); grid-template-columns: minmax(0, 1fr); align-items: start; }
@media (min-width: 80rem) { .player-layout.with-side { grid-template-columns: minmax(0, 1fr) minmax(20rem, 24rem); } }
.player-main, .player-side { min-width: 0; }
.table-wrap.attributes { margin-bottom: var(--urm-space-5); }
.table-wrap.attributes:last-child { margin-bottom: 0; }
.player-side dl.pairs { align-items: baseline; }
.table-wrap.attributes th.attribute-name { font-weight: 600; color: var(--urm-ink); overflow-wrap: anywhere; min-width: 7rem; }
.table-wrap.attributes td.attribute-type { color: var(--urm-muted); font-size: var(--urm-text-sm); white-space: nowrap; }
.table-wrap.attributes td.attribute-value { overflow-wrap: anywhere; min-width: 9rem; width: 60%; }
.change-attribute { border-top: 1px solid var(--urm-line); padding-top: var(--urm-space-4); }
.change-attribute fieldset.choices { border: 0; padding: 0; margin: 0 0 var(--urm-space-3); }
.change-attribute fieldset.choices legend { padding: 0; margin-bottom: var(--urm-space-1); }
.send-form h3 { margin-bottom: var(--urm-space-1); }
.send-form .alert { font-size: var(--urm-text-md); }
.send-purpose { border: 0; margin: var(--urm-space-2) 0; padding: 0; min-width: 0; }
.send-purpose legend { font-weight: 600; padding: 0; margin-bottom: var(--urm-space-1); }
.send-purpose label { display: flex; gap: var(--urm-space-2); align-items: center; padding: var(--urm-space-1) 0; font-weight: 400; }
.send-form [role="alert"], .change-attribute [role="alert"] { margin-top: var(--urm-space-2); }
.devices, .rejection-list { list-style: none; margin: 0; padding: 0; }
.devices li { padding: var(--urm-space-1) 0; overflow-wrap: anywhere; }
.rejection-list li { padding: var(--urm-space-2) 0; border-bottom: 1px solid var(--urm-line); }
.rejection-list li:last-child { border-bottom: 0; }
.rejection-list .reason { margin: var(--urm-space-1) 0 0; font-size: var(--urm-text-md); }
.timeline-filter { margin-bottom: var(--urm-space-1); }
table.timeline td.when { white-space: nowrap; color: var(--urm-ink-soft); }
table.timeline td.event-name code { white-space: nowrap; background: var(--urm-accent-soft); color: var(--urm-accent-strong); }
table.timeline td.event-name code.system { background: var(--urm-surface-sunken); color: var(--urm-ink-soft); }
table.timeline td.what { overflow-wrap: anywhere; min-width: 12rem; }
/* A phone: each entry a block (when and event on a line, what happened under them), not a table to scroll sideways. */
@media (max-width: 40rem) {
  table.timeline thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  table.timeline, table.timeline tbody { display: block; }
  table.timeline tr { display: flex; flex-wrap: wrap; gap: var(--urm-space-1) var(--urm-space-3); align-items: baseline; padding: var(--urm-space-2) var(--urm-space-3); border-bottom: 1px solid var(--urm-line); }
  table.timeline tbody tr:last-child { border-bottom: 0; }
  table.timeline td { display: block; padding: 0; border: 0; }
  table.timeline td.what { flex-basis: 100%; min-width: 0; }
}
table.timeline ul.details { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: var(--urm-space-1) var(--urm-space-4); }
table.timeline .detail-name { color: var(--urm-muted); }
/* The markup writes the colon: not the audit page's one too (admin.ts styles every ul.details). */
table.timeline ul.details .detail-name::after { content: none; }
details.record > summary { cursor: pointer; display: inline-flex; flex-wrap: wrap; gap: var(--urm-space-1); align-items: center; }
details.record[open] > summary { margin-bottom: var(--urm-space-2); }
dl.pairs.record-fields { font-size: var(--urm-text-md); margin: 0 0 var(--urm-space-3); min-width: 16rem; }
details.record .record-label { font-size: var(--urm-text-sm); color: var(--urm-muted); margin: 0 0 var(--urm-space-1); }
details.record pre { margin: 0; font-size: var(--urm-text-sm); }
.data-table .reason { display: block; min-width: 14rem; overflow-wrap: anywhere; }
.home-grid { display: grid; gap: 0 var(--urm-space-4); grid-template-columns: minmax(0, 1fr); align-items: start; }
@media (min-width: 64rem) { .home-grid { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); } }
ul.decisions { list-style: none; margin: 0; padding: 0; }
ul.decisions > li { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-3); align-items: center; justify-content: space-between; padding: var(--urm-space-3) 0; border-bottom: 1px solid var(--urm-line); }
ul.decisions > li:last-child { border-bottom: 0; }
ul.decisions a { font-weight: 600; }
ul.decisions .muted { display: block; font-size: var(--urm-text-sm); }
.home-subhead { margin: var(--urm-space-4) 0 var(--urm-space-2); color: var(--urm-ink-soft); font-size: var(--urm-text-sm); text-transform: uppercase; letter-spacing: 0.04em; }
.newest-rejections { list-style: none; margin: 0; padding: 0; }
.newest-rejections li { padding: var(--urm-space-2) 0; border-top: 1px solid var(--urm-line); display: grid; gap: var(--urm-space-1); }
.newest-rejections .reason { font-size: var(--urm-text-md); color: var(--urm-ink-soft); overflow-wrap: anywhere; }
.home-hint { margin: var(--urm-space-3) 0 0; font-size: var(--urm-text-md); }
`;
