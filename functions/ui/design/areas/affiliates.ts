/** Rules only the affiliates pages need, on top of the design system's components (joined into the one stylesheet by ../stylesheet.ts). */
export const affiliatesCss = `
.status-filter { display: flex; align-items: center; gap: var(--urm-space-2); }
.status-filter label { margin: 0; }
.status-filter select { width: auto; min-width: 9rem; }
/* The plans' table takes the card's width (name, terms and actions in view at a laptop's width), the form below it; beside it only on wide screens. */
.plans-layout { display: grid; gap: var(--urm-space-5); grid-template-columns: minmax(0, 1fr); align-items: start; }
.new-plan { border-top: 1px solid var(--urm-line); padding-top: var(--urm-space-4); }
@media (min-width: 100rem) {
  .plans-layout { grid-template-columns: minmax(0, 2fr) minmax(22rem, 1fr); }
  .new-plan { border-top: 0; padding-top: 0; border-left: 1px solid var(--urm-line); padding-left: var(--urm-space-5); }
}
.new-plan .choice { margin-bottom: var(--urm-space-3); }
.plan-id { display: block; font-weight: 400; font-family: var(--urm-font-mono); font-size: var(--urm-text-xs); }
.plan-terms { display: block; min-width: 12rem; }
.affiliate-report .kpis { grid-template-columns: repeat(auto-fit, minmax(min(100%, 9rem), 1fr)); }
@media (max-width: 30rem) { .affiliate-report .kpis { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
/* Six-figure money keeps its digits together: the card's figure gets smaller before it breaks inside a number. */
:is(.affiliate-report, .programme-totals) .kpi .kpi-value { overflow-wrap: normal; font-size: clamp(var(--urm-text-md), 1.25vw, var(--urm-text-xl)); }
.programme-totals .kpis { grid-template-columns: repeat(auto-fit, minmax(min(100%, 9rem), 1fr)); }
@media (max-width: 30rem) { .programme-totals .kpis { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
.affiliate-who { display: inline-flex; flex-wrap: wrap; align-items: center; gap: var(--urm-space-1) var(--urm-space-3); }
.status-actions .cluster > button.danger { background: var(--urm-surface); color: var(--urm-danger); border-color: var(--urm-danger); }
.status-actions .cluster > button.danger:hover { background: var(--urm-danger-soft); }
.status-actions .alert { margin: var(--urm-space-2) 0 0; }
.inline-control { display: flex; flex-wrap: wrap; gap: var(--urm-space-2); align-items: stretch; }
.inline-control > select, .inline-control > input { flex: 1 1 14rem; width: auto; min-width: 0; }
.assign-plan { margin-top: var(--urm-space-4); padding-top: var(--urm-space-4); border-top: 1px solid var(--urm-line); }
.assign-plan .field { margin-bottom: var(--urm-space-2); }
table.links td .landing { display: block; color: var(--urm-muted); font-size: var(--urm-text-sm); margin-top: var(--urm-space-1); }
.new-link { margin-top: var(--urm-space-4); }
.report-range { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-3); align-items: flex-end; margin-bottom: var(--urm-space-4); }
.report-range .field { margin: 0; }
.report-range input { width: auto; }
.affiliate-report h3.by-link { margin-top: var(--urm-space-5); }
.report-period { font-size: var(--urm-text-sm); }
table.report, table.report-links { font-size: var(--urm-text-sm); }
:is(table.report, table.report-links) :is(th, td) { padding: 0.4rem 0.4rem; }
:is(table.report, table.report-links) :is(th, td):first-child { padding-left: 0.75rem; }
:is(table.report, table.report-links) :is(th, td):last-child { padding-right: 0.75rem; }
/* A laptop's 1366 px shows every column of a report: a header of two words takes two lines before the figures lose room. */
:is(table.report, table.report-links) thead th { white-space: normal; vertical-align: bottom; }
/* Narrower, the region scrolls sideways and the first column (the day, the link, the affiliate) stays in view. */
:is(table.report, table.report-links, .programme-table table) :is(tbody, tfoot) > tr > :first-child { position: sticky; left: 0; z-index: 1; background: var(--urm-surface); }
:is(table.report, table.report-links, .programme-table table) thead th:first-child { left: 0; z-index: 2; }
:is(table.report, table.report-links, .programme-table table) :is(tbody, tfoot) > tr > :first-child { box-shadow: inset -1px 0 0 var(--urm-line); }
:is(table.report, table.report-links) caption { position: sticky; left: 0; }
.programme-table table { font-size: var(--urm-text-sm); }
.programme-table :is(th, td) { padding: 0.45rem 0.5rem; }
.programme-table tfoot td:first-child { font-weight: 650; }
.postback-url .inline-control > input { flex-basis: 20rem; }
.postback-actions { margin-bottom: var(--urm-space-4); }
.trace .grid-wide { margin-bottom: var(--urm-space-5); }
ul.money-events { list-style: none; margin: 0; padding: 0; }
ul.money-events li + li { margin-top: var(--urm-space-1); }
.month-picker { display: flex; align-items: center; gap: var(--urm-space-2); }
.month-picker label { margin: 0; }
.month-picker input { width: auto; }
.table-note { font-size: var(--urm-text-sm); margin: var(--urm-space-2) 0 0; }
.programme-tops { display: grid; gap: var(--urm-space-5); grid-template-columns: repeat(auto-fit, minmax(min(100%, 28rem), 1fr)); align-items: start; }
.programme-tops > .card { margin-bottom: 0; }
.programme-table .plan-name { display: inline-block; min-width: 8rem; }
.top-lists { display: grid; gap: var(--urm-space-4) var(--urm-space-5); grid-template-columns: repeat(auto-fit, minmax(min(100%, 18rem), 1fr)); }
.top-lists h3 { margin: 0 0 var(--urm-space-2); font-size: var(--urm-text-md); }
ol.ranking { margin: 0; padding: 0; list-style: none; counter-reset: rank; }
ol.ranking li { counter-increment: rank; display: flex; align-items: baseline; gap: var(--urm-space-2); padding: var(--urm-space-2) 0; border-bottom: 1px solid var(--urm-line); }
ol.ranking li:last-child { border-bottom: 0; }
ol.ranking li::before { content: counter(rank); min-width: 1.5rem; color: var(--urm-muted); font-variant-numeric: tabular-nums; font-size: var(--urm-text-sm); }
ol.ranking .ranking-name { flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; }
ol.ranking .ranking-figure { font-variant-numeric: tabular-nums; font-weight: 600; white-space: nowrap; }
/* Deals: plan versions, archiving, an affiliate's deal history. */
.row-actions { display: flex; flex-wrap: wrap; gap: var(--urm-space-1); }
.plan-versions { margin-top: var(--urm-space-4); padding: var(--urm-space-3) var(--urm-space-4); border: 1px solid var(--urm-line); border-radius: var(--urm-radius-md); }
.plan-versions h3 { margin-top: 0; }
.plan-versions ol { padding-left: 1.25rem; margin: 0 0 var(--urm-space-3); }
.plan-versions li { margin-bottom: var(--urm-space-1); overflow-wrap: anywhere; }
table.deals th[scope=row] { white-space: nowrap; }
table.deals th[scope=row] .badge { margin-left: var(--urm-space-2); }
table.deals td { min-width: 10rem; }
`;
