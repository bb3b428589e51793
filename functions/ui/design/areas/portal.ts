/**
 * Rules only the portal pages need, on top of the design system's components (joined into the one stylesheet by ../stylesheet.ts).
 * Each under `.portal` (the portals' <body>): the console's stylesheet carries them too.
 */
import { breakpoints } from '../tokens';

export const portalCss = `
.portal header.bar .brand { margin-right: var(--urm-space-4); }
.portal header.bar .account { margin-left: auto; display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-3); align-items: center; min-width: 0; }
.portal header.bar .who { overflow-wrap: anywhere; }
.portal header.bar nav a:hover { color: #fff; border-bottom-color: var(--urm-sidebar-ink); }
.portal header.bar nav a[aria-current="page"] { font-weight: 600; }
.portal .access h1 { font-size: var(--urm-text-xl); }
.portal .access .lead { color: var(--urm-muted); margin-top: calc(-1 * var(--urm-space-2)); }
.portal .access form { margin-top: var(--urm-space-4); }
.portal .access .below { text-align: center; margin: var(--urm-space-4) 0 0; font-size: var(--urm-text-md); }
.portal .period { display: flex; flex-wrap: wrap; gap: var(--urm-space-3) var(--urm-space-4); align-items: flex-end; }
.portal .period .field { margin: 0; flex: 1 1 8.5rem; min-width: 8rem; max-width: 12rem; }
.portal .period-card { display: flex; flex-wrap: wrap; gap: var(--urm-space-3) var(--urm-space-6); align-items: flex-end; justify-content: space-between; }
.portal .period-card .period { flex: 1 1 26rem; }
.portal a.chip { display: inline-block; text-decoration: none; color: var(--urm-ink-soft); padding: 0.15rem 0.7rem; }
.portal a.chip:hover { border-color: var(--urm-accent); color: var(--urm-accent-strong); }
.portal a.chip[aria-current] { background: var(--urm-accent-soft); border-color: var(--urm-accent); color: var(--urm-accent-strong); font-weight: 600; }
.portal tbody th { font-weight: 600; }
.portal tbody tr:last-child th { border-bottom: 0; }
.portal tbody tr:hover th { background: #f8f9fc; }
.portal .kpis { grid-template-columns: repeat(2, minmax(0, 1fr)); }
.portal .kpi-change .muted { font-weight: 400; }
.portal .alert code.address { display: inline-block; max-width: 100%; }
.portal th.name { min-width: 10rem; max-width: 18rem; white-space: normal; overflow-wrap: break-word; }
.portal .table-wrap table:not(.link-list) :is(th, td):first-child { position: sticky; left: 0; z-index: 1; background: var(--urm-surface); box-shadow: inset -1px 0 var(--urm-line); }
.portal .table-wrap thead th:first-child { z-index: 2; background: var(--urm-surface-sunken); }
.portal .copy-row { display: flex; flex-wrap: wrap; gap: var(--urm-space-2); align-items: center; }
.portal .copy-row code { min-width: 0; overflow-wrap: anywhere; }
.portal .copy-status { margin: var(--urm-space-3) 0 0; color: var(--urm-success); font-weight: 600; }
.portal .copy-status:empty { margin: 0; }
.portal .built { margin-top: var(--urm-space-4); padding: var(--urm-space-3) var(--urm-space-4); background: var(--urm-accent-soft); border-radius: var(--urm-radius-lg); }
.portal .built-label { margin: 0 0 var(--urm-space-1); font-weight: 600; }
.portal fieldset.contacts { border: 0; padding: 0; margin: var(--urm-space-3) 0 0; min-width: 0; }
.portal fieldset.contacts legend { font-weight: 600; padding: 0; margin-bottom: var(--urm-space-2); }
.portal .card.join { max-width: 44rem; margin: 0 auto; }
.portal .card.join h1 { font-size: var(--urm-text-xl); }
.portal .profile-columns { display: grid; gap: 0 var(--urm-space-5); grid-template-columns: repeat(auto-fit, minmax(min(100%, 20rem), 1fr)); align-items: start; }
.portal code.address { user-select: all; }
.portal .secondary-actions { display: flex; flex-wrap: wrap; gap: var(--urm-space-2); margin-top: var(--urm-space-5); padding-top: var(--urm-space-4); border-top: 1px solid var(--urm-line); }
.portal .alert p.tight { margin: var(--urm-space-1) 0; }
.portal .alert code { color: var(--urm-ink); }
.portal table.log td:nth-child(4) { text-align: right; }
.portal table.log td:nth-child(3) { white-space: nowrap; }
.portal table.log td:last-child { white-space: nowrap; }
.portal table.log td.wrap { min-width: 8rem; }
.portal [class*="outcome-"]::before { content: ""; display: inline-block; width: 0.5rem; height: 0.5rem; border-radius: 50%; margin-right: 0.4rem; background: currentColor; }
.portal td.outcome-delivered { color: var(--urm-success); }
.portal td.outcome-retrying { color: var(--urm-warning); }
.portal td.outcome-failed { color: var(--urm-danger); }
.portal .event-switches fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
.portal .event-switches legend { padding: 0; margin-bottom: var(--urm-space-1); color: var(--urm-ink-soft); font-weight: 600; }
.portal .switch-list { list-style: none; margin: 0; padding: 0; }
.portal .switch-list li { display: flex; align-items: center; gap: var(--urm-space-1) var(--urm-space-3); padding: var(--urm-space-3) 0; border-top: 1px solid var(--urm-line); }
.portal .switch-list li:first-child { border-top: 0; }
.portal .switch-list input[type="checkbox"] { width: 1.25rem; height: 1.25rem; flex: none; }
.portal .switch-list label { margin: 0; font-weight: 500; cursor: pointer; flex: 1 1 auto; min-width: 0; }
.portal .switch-list .event-code { flex: none; color: var(--urm-muted); font-size: var(--urm-text-sm); }
.portal table.log td.called { min-width: 12rem; max-width: 24rem; }
.portal table.log td.called code { white-space: normal; overflow-wrap: anywhere; font-size: var(--urm-text-sm); }
.portal p.empty { margin: 0; padding: var(--urm-space-6) var(--urm-space-4); }
@media (max-width: ${breakpoints.md}) {
  .portal .link-list thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  .portal .link-list, .portal .link-list tbody, .portal .link-list tr, .portal .link-list th, .portal .link-list td { display: block; }
  .portal .link-list tr { padding: var(--urm-space-3) var(--urm-space-4); border-bottom: 1px solid var(--urm-line); }
  .portal .link-list tr:last-child { border-bottom: 0; }
  .portal .link-list th, .portal .link-list td { padding: var(--urm-space-1) 0; border: 0; max-width: none; }
  .portal .link-list td[data-label]::before { content: attr(data-label); display: block; color: var(--urm-muted); font-size: var(--urm-text-sm); }
  .portal .link-list td.landing { overflow-wrap: anywhere; }
  .portal header.bar .account { margin-left: 0; }
  .portal .chart svg { overflow: visible; }
  .portal .chart .axis-label { font-size: 28px; }
  .portal .chart rect ~ .axis-label { transform: translateY(8px); }
  .portal .kpi .kpi-value { font-size: var(--urm-text-lg); }
}
@media (min-width: ${breakpoints.md}) {
  .portal .kpis { grid-template-columns: repeat(3, minmax(0, 1fr)); }
  .portal .link-list td.landing { overflow-wrap: anywhere; min-width: 12rem; }
  .portal .link-list td.address code { white-space: nowrap; overflow-wrap: normal; }
}
`;
