/**
 * urm's one stylesheet: the tokens (tokens.ts) as custom properties, the
 * elements' base look, the components (functions/ui/design/*.tsx) and the
 * page frames (the console's sidebar shell, the portal's top bar). The
 * console's build minifies it into its hashed CSS file (lib/console/build.ts);
 * the portal and the player's pages inline it, allowed by its hash
 * (`styleHash` in functions/http/html.ts). Sizes in rem and wrapping layouts: pages reflow at
 * 200 % zoom, and no page scrolls sideways except inside a table region that
 * says so.
 */
import { adminCss } from './areas/admin';
import { affiliatesCss } from './areas/affiliates';
import { broadcastsCss } from './areas/broadcasts';
import { audienceCss } from './areas/audience';
import { campaignsCss } from './areas/campaigns';
import { homeCss } from './areas/home';
import { journeysCss } from './areas/journeys';
import { portalCss } from './areas/portal';
import { preferencesCss } from './areas/preferences';
import { resultsCss } from './areas/results';
import { segmentsCss } from './areas/segments';
import { breakpoints, tokensCss } from './tokens';

const base = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 400 var(--urm-text-base)/1.5 var(--urm-font-sans); color: var(--urm-ink); background: var(--urm-canvas); }
h1, h2, h3, h4 { color: var(--urm-ink); line-height: 1.3; margin: 0 0 var(--urm-space-3); }
h1 { font-size: var(--urm-text-xl); font-weight: 650; }
h2 { font-size: var(--urm-text-lg); font-weight: 600; }
h3 { font-size: var(--urm-text-base); font-weight: 600; }
p { margin: 0 0 var(--urm-space-3); }
a { color: var(--urm-accent); text-underline-offset: 0.15em; }
a:hover { color: var(--urm-accent-strong); }
code, kbd, pre { font-family: var(--urm-font-mono); font-size: 0.92em; }
code { background: var(--urm-surface-sunken); padding: 0.05rem 0.3rem; border-radius: var(--urm-radius-sm); overflow-wrap: anywhere; }
pre { background: var(--urm-surface-sunken); padding: var(--urm-space-3); border-radius: var(--urm-radius-md); overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
small { font-size: var(--urm-text-sm); }
hr { border: 0; border-top: 1px solid var(--urm-line); margin: var(--urm-space-5) 0; }
ul, ol { padding-left: var(--urm-space-5); }
dl { margin: 0; }
img, svg, canvas { max-width: 100%; }
:focus-visible { outline: 3px solid var(--urm-focus); outline-offset: 2px; }
[hidden] { display: none !important; }
.muted { color: var(--urm-muted); }
p.error, span.error { color: var(--urm-danger); }
p.success, span.success { color: var(--urm-success); }
.mono { font-family: var(--urm-font-mono); }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.nowrap { white-space: nowrap; }
.break { overflow-wrap: anywhere; word-break: break-word; }
.visually-hidden, .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.skip { position: absolute; left: -999rem; }
.skip:focus { left: var(--urm-space-4); top: var(--urm-space-4); background: var(--urm-surface); padding: var(--urm-space-2) var(--urm-space-4); z-index: 20; }
.stack > * + * { margin-top: var(--urm-space-4); }
.cluster { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-3); align-items: center; }
.grid-auto { display: grid; gap: var(--urm-space-4); grid-template-columns: repeat(auto-fit, minmax(min(100%, 20rem), 1fr)); align-items: start; }
.grid-wide { display: grid; gap: var(--urm-space-4); grid-template-columns: repeat(auto-fit, minmax(min(100%, 28rem), 1fr)); align-items: start; }
`;

const controls = `
button, .button { font: inherit; font-size: var(--urm-text-md); font-weight: 600; line-height: 1.25; display: inline-flex; align-items: center; justify-content: center; gap: var(--urm-space-2);
  width: auto; min-height: 2.25rem; padding: 0.45rem 0.9rem; border-radius: var(--urm-radius-md); border: 1px solid var(--urm-line-strong);
  background: var(--urm-surface); color: var(--urm-ink); cursor: pointer; text-decoration: none; white-space: nowrap; }
button:hover, .button:hover { background: var(--urm-surface-sunken); color: var(--urm-ink); }
button.primary, .button.primary { background: var(--urm-accent); border-color: var(--urm-accent); color: var(--urm-on-accent); }
button.primary:hover, .button.primary:hover { background: var(--urm-accent-strong); border-color: var(--urm-accent-strong); color: var(--urm-on-accent); }
button.danger, .button.danger { background: var(--urm-danger); border-color: var(--urm-danger); color: #fff; }
button.danger:hover { background: #8f1d17; }
button.ghost, .button.ghost { background: transparent; border-color: transparent; color: var(--urm-accent); }
button.ghost:hover { background: var(--urm-accent-soft); }
button.small, .button.small { min-height: 1.75rem; padding: 0.2rem 0.6rem; font-size: var(--urm-text-sm); }
button.block { width: 100%; }
button:disabled, button[aria-disabled="true"] { opacity: 0.55; cursor: not-allowed; }
button[aria-busy="true"]::before { content: ""; width: 0.9em; height: 0.9em; border: 2px solid currentColor; border-right-color: transparent; border-radius: 50%; animation: urm-spin 0.8s linear infinite; }
@keyframes urm-spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { button[aria-busy="true"]::before { animation: none; } }
label, .label { display: block; font-size: var(--urm-text-md); font-weight: 600; margin: 0 0 var(--urm-space-1); color: var(--urm-ink); }
.field { margin: 0 0 var(--urm-space-4); min-width: 0; }
.field .hint { display: block; color: var(--urm-muted); font-size: var(--urm-text-sm); font-weight: 400; margin-top: var(--urm-space-1); }
input, select, textarea { font: inherit; font-size: var(--urm-text-md); color: var(--urm-ink); background: var(--urm-surface); border: 1px solid var(--urm-line-strong);
  border-radius: var(--urm-radius-md); padding: 0.45rem 0.65rem; width: 100%; max-width: 100%; min-height: 2.25rem; }
input[type="checkbox"], input[type="radio"] { width: 1rem; height: 1rem; min-height: 0; margin: 0; accent-color: var(--urm-accent); vertical-align: -0.15em; }
textarea { min-height: 6rem; resize: vertical; }
textarea.mono { font-family: var(--urm-font-mono); }
input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 3px solid var(--urm-focus); outline-offset: 1px; border-color: var(--urm-accent); }
[aria-invalid="true"] { border-color: var(--urm-danger); }
.field-error { color: var(--urm-danger); font-size: var(--urm-text-sm); margin: var(--urm-space-1) 0 0; }
fieldset { border: 1px solid var(--urm-line); border-radius: var(--urm-radius-md); padding: var(--urm-space-3) var(--urm-space-4); margin: 0 0 var(--urm-space-4); min-width: 0; }
legend { font-weight: 600; font-size: var(--urm-text-md); padding: 0 var(--urm-space-1); }
.choice { display: inline-flex; align-items: center; gap: var(--urm-space-2); font-weight: 400; margin: 0 var(--urm-space-4) var(--urm-space-1) 0; }
.form-row { display: grid; gap: 0 var(--urm-space-4); grid-template-columns: repeat(auto-fit, minmax(min(100%, 13rem), 1fr)); align-items: start; }
.form-actions { display: flex; flex-wrap: wrap; gap: var(--urm-space-2); align-items: center; margin-top: var(--urm-space-2); }
.form-actions form { margin: 0; }
form { margin: 0; }
`;

const components = `
.card { background: var(--urm-surface); border: 1px solid var(--urm-line); border-radius: var(--urm-radius-lg); padding: var(--urm-space-5); margin: 0 0 var(--urm-space-4); box-shadow: var(--urm-shadow-sm); min-width: 0; }
.card > :last-child { margin-bottom: 0; }
.card-header { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-3); align-items: center; justify-content: space-between; margin-bottom: var(--urm-space-3); }
.card-header h2, .card-header h3 { margin: 0; }
.page-header { display: flex; flex-wrap: wrap; gap: var(--urm-space-3); align-items: flex-start; justify-content: space-between; margin-bottom: var(--urm-space-5); }
.page-header h1 { margin: 0; overflow-wrap: anywhere; }
.page-header .subtitle { color: var(--urm-muted); margin: var(--urm-space-1) 0 0; }
.breadcrumbs ol { list-style: none; display: flex; flex-wrap: wrap; gap: var(--urm-space-1); padding: 0; margin: 0 0 var(--urm-space-2); font-size: var(--urm-text-sm); color: var(--urm-muted); }
.breadcrumbs li + li::before { content: "/"; margin-right: var(--urm-space-1); color: var(--urm-line-strong); }
.breadcrumbs a { color: var(--urm-muted); }
.breadcrumbs [aria-current="page"] { color: var(--urm-ink); overflow-wrap: anywhere; }
.badge { display: inline-flex; align-items: center; gap: 0.3em; font-size: var(--urm-text-xs); font-weight: 600; line-height: 1.4; padding: 0.1rem 0.5rem; border-radius: var(--urm-radius-pill);
  background: var(--urm-surface-sunken); color: var(--urm-ink-soft); white-space: nowrap; text-transform: none; }
.badge.tone-accent { background: var(--urm-accent-soft); color: var(--urm-accent-strong); }
.badge.tone-success { background: var(--urm-success-soft); color: var(--urm-success); }
.badge.tone-warning { background: var(--urm-warning-soft); color: var(--urm-warning); }
.badge.tone-danger { background: var(--urm-danger-soft); color: var(--urm-danger); }
.badge.tone-info { background: var(--urm-info-soft); color: var(--urm-info); }
.chips { display: inline-flex; flex-wrap: wrap; gap: var(--urm-space-1); padding: 0; margin: 0; list-style: none; }
.chip { font-size: var(--urm-text-sm); background: var(--urm-surface-sunken); border: 1px solid var(--urm-line); border-radius: var(--urm-radius-pill); padding: 0 0.5rem; overflow-wrap: anywhere; }
.value-empty { color: var(--urm-muted); font-style: italic; }
mark.invisible-char { background: var(--urm-warning-soft); color: var(--urm-warning); border-radius: var(--urm-radius-sm); padding: 0 0.15em; font-family: var(--urm-font-mono); font-size: 0.85em; }
.alert { border-radius: var(--urm-radius-md); padding: var(--urm-space-3) var(--urm-space-4); margin: 0 0 var(--urm-space-4); border: 1px solid transparent; background: var(--urm-info-soft); color: var(--urm-info); }
.alert.tone-danger, .alert.bad { background: var(--urm-danger-soft); color: var(--urm-danger); border-color: #f3c5c2; }
.alert.tone-success, .alert.ok { background: var(--urm-success-soft); color: var(--urm-success); border-color: #bfe3cc; }
.alert.tone-warning { background: var(--urm-warning-soft); color: var(--urm-warning); border-color: #f2d7a6; }
.alert > :last-child { margin-bottom: 0; }
.alert strong:first-child { display: block; }
.kpis { display: grid; gap: var(--urm-space-3); grid-template-columns: repeat(auto-fit, minmax(min(100%, 11rem), 1fr)); margin: 0 0 var(--urm-space-4); padding: 0; list-style: none; }
.kpi { background: var(--urm-surface); border: 1px solid var(--urm-line); border-radius: var(--urm-radius-lg); padding: var(--urm-space-3) var(--urm-space-4); box-shadow: var(--urm-shadow-sm); min-width: 0; }
.kpi .kpi-label { display: block; color: var(--urm-muted); font-size: var(--urm-text-sm); font-weight: 500; }
.kpi .kpi-value { display: block; font-size: var(--urm-text-xl); font-weight: 650; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
.kpi .kpi-unit { font-size: var(--urm-text-sm); font-weight: 600; color: var(--urm-muted); }
.kpi .kpi-note { display: block; color: var(--urm-muted); font-size: var(--urm-text-sm); }
.kpi .kpi-change { font-size: var(--urm-text-sm); font-weight: 600; }
.kpi .kpi-change.up { color: var(--urm-success); }
.kpi .kpi-change.down { color: var(--urm-danger); }
.kpi .kpi-change.flat { color: var(--urm-muted); }
.kpi .sparkline { display: block; width: 100%; height: 2rem; margin-top: var(--urm-space-2); }
.kpi.key { border-color: var(--urm-accent); box-shadow: inset 0 0 0 1px var(--urm-accent); }
.table-wrap { overflow-x: auto; border: 1px solid var(--urm-line); border-radius: var(--urm-radius-lg); background: var(--urm-surface); max-width: 100%; }
.table-wrap:focus-visible { outline-offset: 0; }
/* The containing block of what is positioned inside (a visually hidden label): else it escapes the region's scrolling and widens the page. */
.table-wrap { position: relative; }
.table-wrap.scroll-y { max-height: 36rem; overflow-y: auto; }
table { border-collapse: separate; border-spacing: 0; width: 100%; font-size: var(--urm-text-md); font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 0.55rem 0.75rem; border-bottom: 1px solid var(--urm-line); vertical-align: top; }
thead th { position: sticky; top: 0; z-index: 1; background: var(--urm-surface-sunken); color: var(--urm-ink-soft); font-size: var(--urm-text-sm); font-weight: 600; white-space: nowrap; }
tbody tr:hover > td, tbody tr:hover > th { background: #f8f9fc; }
tbody tr:last-child > td, tbody tr:last-child > th { border-bottom: 0; }
tfoot td, tfoot th { font-weight: 650; border-top: 1px solid var(--urm-line-strong); border-bottom: 0; }
th.num, td.num { text-align: right; white-space: nowrap; }
td.wrap { overflow-wrap: anywhere; min-width: 10rem; }
caption { text-align: left; caption-side: top; padding: var(--urm-space-2) var(--urm-space-3); color: var(--urm-muted); font-size: var(--urm-text-sm); }
th button.sort { all: unset; cursor: pointer; display: inline-flex; align-items: center; gap: 0.3em; font: inherit; color: inherit; }
th button.sort:focus-visible { outline: 3px solid var(--urm-focus); outline-offset: 2px; }
th button.sort .sort-mark { color: var(--urm-muted); font-size: 0.85em; }
.table-toolbar { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-3); align-items: center; justify-content: space-between; margin: 0 0 var(--urm-space-2); }
.table-footer { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-3); align-items: center; justify-content: space-between; margin-top: var(--urm-space-2); font-size: var(--urm-text-sm); color: var(--urm-muted); }
.table-state { padding: var(--urm-space-6) var(--urm-space-4); text-align: center; color: var(--urm-muted); }
details.menu { position: relative; }
details.menu > summary { list-style: none; cursor: pointer; font-size: var(--urm-text-sm); font-weight: 600; padding: 0.25rem 0.6rem; border: 1px solid var(--urm-line-strong); border-radius: var(--urm-radius-md); background: var(--urm-surface); }
details.menu > summary::-webkit-details-marker { display: none; }
details.menu > .menu-panel { position: absolute; right: 0; z-index: 5; margin-top: var(--urm-space-1); min-width: 12rem; background: var(--urm-surface); border: 1px solid var(--urm-line); border-radius: var(--urm-radius-md); box-shadow: var(--urm-shadow-md); padding: var(--urm-space-2) var(--urm-space-3); }
.menu-panel label { font-weight: 400; display: flex; gap: var(--urm-space-2); align-items: center; margin: var(--urm-space-1) 0; }
dl.pairs { display: grid; grid-template-columns: minmax(6rem, max-content) minmax(0, 1fr); gap: var(--urm-space-2) var(--urm-space-5); margin: 0 0 var(--urm-space-4); }
dl.pairs > div { display: contents; }
dl.pairs dt { color: var(--urm-muted); font-size: var(--urm-text-md); overflow-wrap: anywhere; }
dl.pairs dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
.chart { margin: 0 0 var(--urm-space-3); min-width: 0; }
.chart svg { width: 100%; height: auto; display: block; }
.chart .grid-line { stroke: var(--urm-line); stroke-width: 1; }
.chart .axis-line { stroke: var(--urm-line-strong); stroke-width: 1; }
.chart .axis-label { font-size: 12px; fill: var(--urm-muted); }
.chart-canvas { width: 100%; min-height: 14rem; }
.legend { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-5); margin: var(--urm-space-2) 0 0; padding: 0; list-style: none; color: var(--urm-ink-soft); font-size: var(--urm-text-sm); }
.legend li { display: inline-flex; align-items: center; gap: var(--urm-space-2); }
.swatch[data-series="0"] { background: var(--urm-series-1); }
.swatch[data-series="1"] { background: var(--urm-series-2); }
.swatch[data-series="2"] { background: var(--urm-series-3); }
.swatch[data-series="3"] { background: var(--urm-series-4); }
.swatch[data-series="4"] { background: var(--urm-series-5); }
.legend .swatch, .swatch { display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 2px; }
details.fallback > summary { cursor: pointer; color: var(--urm-accent); font-size: var(--urm-text-sm); margin: var(--urm-space-2) 0; }
dialog { border: 0; border-radius: var(--urm-radius-lg); padding: var(--urm-space-5); max-width: min(32rem, calc(100vw - 2rem)); box-shadow: var(--urm-shadow-md); color: var(--urm-ink); }
dialog::backdrop { background: rgb(23 32 51 / 45%); }
dialog h2 { margin-top: 0; }
.toasts { position: fixed; right: var(--urm-space-4); bottom: var(--urm-space-4); z-index: 30; display: flex; flex-direction: column; gap: var(--urm-space-2); max-width: min(26rem, calc(100vw - 2rem)); margin: 0; padding: 0; list-style: none; }
.toast { background: var(--urm-ink); color: #fff; border-radius: var(--urm-radius-md); padding: var(--urm-space-3) var(--urm-space-4); box-shadow: var(--urm-shadow-md); display: flex; gap: var(--urm-space-3); align-items: flex-start; justify-content: space-between; }
.toast.tone-danger { background: var(--urm-danger); }
.toast button { color: #fff; background: transparent; border-color: rgb(255 255 255 / 40%); min-height: 1.5rem; padding: 0.1rem 0.5rem; }
.toast button:hover { background: rgb(255 255 255 / 15%); color: #fff; }
.sub-link { display: block; font-size: var(--urm-text-sm); font-weight: 400; color: var(--urm-muted); }
.sub-link code { white-space: nowrap; }
.empty { text-align: center; color: var(--urm-muted); padding: var(--urm-space-8) var(--urm-space-4); border: 1px dashed var(--urm-line-strong); border-radius: var(--urm-radius-lg); background: var(--urm-surface); }
.loading { color: var(--urm-muted); }
.shown-once { border-left: 4px solid var(--urm-danger); }
code.secret { word-break: break-all; user-select: all; }
.timeline { list-style: none; margin: 0; padding: 0; }
.timeline > li { border-left: 2px solid var(--urm-line); padding: 0 0 var(--urm-space-3) var(--urm-space-4); position: relative; }
.timeline > li::before { content: ""; position: absolute; left: -6px; top: 0.45rem; width: 10px; height: 10px; border-radius: 50%; background: var(--urm-accent); }
`;

const consoleShell = `
.shell { min-height: 100vh; display: grid; grid-template-columns: minmax(0, 1fr); }
.sidebar { background: var(--urm-sidebar); color: var(--urm-sidebar-ink); padding: var(--urm-space-3); }
.sidebar .brand { display: flex; align-items: center; justify-content: space-between; gap: var(--urm-space-2); color: #fff; font-weight: 700; padding: var(--urm-space-1) var(--urm-space-2); }
.sidebar .brand .app-name { overflow-wrap: anywhere; }
.sidebar nav ul { list-style: none; margin: var(--urm-space-3) 0 0; padding: 0; }
.sidebar nav a { display: block; color: var(--urm-sidebar-ink); text-decoration: none; padding: 0.45rem var(--urm-space-3); border-radius: var(--urm-radius-md); font-size: var(--urm-text-md); font-weight: 500; }
.sidebar nav a:hover { background: var(--urm-sidebar-active); color: #fff; }
.sidebar nav a[aria-current="page"] { background: var(--urm-sidebar-active); color: #fff; box-shadow: inset 3px 0 0 var(--urm-focus); }
.sidebar nav .nav-group { display: block; margin: var(--urm-space-4) var(--urm-space-3) var(--urm-space-1); font-size: var(--urm-text-xs); text-transform: uppercase; letter-spacing: 0.06em; color: #8d97ae; }
.sidebar .nav-toggle { color: #fff; background: transparent; border-color: #4a5572; }
.sidebar .nav-toggle:hover { background: var(--urm-sidebar-active); color: #fff; }
.topbar { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-4); align-items: center; justify-content: space-between; padding: var(--urm-space-3) var(--urm-space-5); background: var(--urm-surface); border-bottom: 1px solid var(--urm-line); }
.topbar .app { font-weight: 650; overflow-wrap: anywhere; }
.topbar .who { display: inline-flex; flex-wrap: wrap; gap: var(--urm-space-2); align-items: center; font-size: var(--urm-text-md); }
.content { padding: var(--urm-space-5); max-width: 90rem; width: 100%; min-width: 0; }
.centered { max-width: 36rem; margin: 0 auto; padding: 4rem var(--urm-space-4); }
@media (max-width: ${breakpoints.lg}) {
  .shell { grid-template-rows: auto 1fr; }
  .sidebar nav[data-open="false"] { display: none; }
  .content { padding: var(--urm-space-4) var(--urm-space-3); }
  .topbar { padding: var(--urm-space-2) var(--urm-space-3); }
}
@media (min-width: ${breakpoints.lg}) {
  .shell { grid-template-columns: 15rem minmax(0, 1fr); }
  .sidebar { min-height: 100vh; }
  .sidebar .nav-toggle { display: none; }
}
.main-column { min-width: 0; display: flex; flex-direction: column; }
`;

const portalFrame = `
header.bar { background: var(--urm-sidebar); color: #fff; }
header.bar .inner { max-width: 72rem; margin: 0 auto; padding: var(--urm-space-3) var(--urm-space-5); display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-6); align-items: center; }
header.bar .brand { font-weight: 700; font-size: var(--urm-text-lg); margin-right: auto; overflow-wrap: anywhere; }
header.bar nav { display: flex; flex-wrap: wrap; gap: var(--urm-space-1) var(--urm-space-4); align-items: center; }
header.bar nav a { color: #fff; text-decoration: none; padding: var(--urm-space-1) 0.1rem; border-bottom: 2px solid transparent; }
header.bar nav a[aria-current="page"] { border-bottom-color: var(--urm-focus); }
header.bar .who { color: var(--urm-sidebar-ink); font-size: var(--urm-text-md); }
header.bar button.quiet { background: transparent; color: #fff; border-color: #6f7a93; }
header.bar button.quiet:hover { background: var(--urm-sidebar-active); }
main.page { max-width: 72rem; margin: 0 auto; padding: var(--urm-space-6) var(--urm-space-5) var(--urm-space-10); }
main.page.narrow { max-width: 28rem; padding-top: var(--urm-space-10); }
@media (max-width: ${breakpoints.md}) { main.page { padding: var(--urm-space-4) var(--urm-space-3) var(--urm-space-8); } .card { padding: var(--urm-space-4); } }
`;

/** The whole stylesheet, as one string (the console minifies it; the portal inlines it). */
export const designStylesheet = [
  tokensCss(),
  base,
  controls,
  components,
  consoleShell,
  portalFrame,
  audienceCss,
  homeCss,
  segmentsCss,
  campaignsCss,
  journeysCss,
  broadcastsCss,
  affiliatesCss,
  adminCss,
  portalCss,
  resultsCss,
].join('');

/**
 * What the affiliate portal and the enterprise portal's pages inline: the same
 * parts without the console's shell and its pages' areas, so each page stays
 * within 30 kB of CSS (test/static/portal-css.test.ts).
 */
export const portalStylesheet = [tokensCss(), base, controls, components, portalFrame, portalCss, preferencesCss].join('');
