/**
 * The portal's one stylesheet, inline in every page and allowed by its
 * SHA-256 in the Content-Security-Policy (no 'unsafe-inline'). Sizes in rem
 * and wrapping layouts, so pages reflow at 200 % zoom.
 */
import { createHash } from 'node:crypto';

export const portalCss = `
:root { --ink: #1b2233; --muted: #5b6478; --line: #dfe3ec; --bg: #f3f5f9; --card: #fff; --accent: #2348c4; --accent-ink: #fff;
  --bad: #b42318; --bad-bg: #fdecea; --ok-bg: #e8f3ee; --ok: #17603a; }
* { box-sizing: border-box; }
body { margin: 0; font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid #f5b400; outline-offset: 2px; }
.skip { position: absolute; left: -999rem; }
.skip:focus { left: 1rem; top: 1rem; background: var(--card); padding: 0.5rem 1rem; z-index: 1; }
header.bar { background: var(--ink); color: #fff; }
header.bar .inner { max-width: 72rem; margin: 0 auto; padding: 0.75rem 1.25rem; display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: center; }
header.bar .brand { font-weight: 700; font-size: 1.1rem; margin-right: auto; }
header.bar nav { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; align-items: center; }
header.bar nav a { color: #fff; text-decoration: none; padding: 0.25rem 0.1rem; border-bottom: 2px solid transparent; }
header.bar nav a[aria-current="page"] { border-bottom-color: #f5b400; }
header.bar form { margin: 0; }
header.bar .who { color: #c8cfdd; font-size: 0.9rem; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
main.narrow { max-width: 28rem; padding-top: 3rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1.5rem; margin-bottom: 1.25rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0 0 1rem; }
h2 { font-size: 1.15rem; margin: 0 0 0.75rem; }
p.lead { color: var(--muted); margin-top: -0.5rem; }
.muted { color: var(--muted); }
label { display: block; font-weight: 600; margin: 0 0 0.3rem; }
.field { margin-bottom: 1rem; }
input[type=text], input[type=email], input[type=password], input[type=url], input[type=date] {
  width: 100%; font: inherit; padding: 0.55rem 0.7rem; border: 1px solid #b8c0d0; border-radius: 6px; background: #fff; color: var(--ink); }
input[aria-invalid="true"] { border-color: var(--bad); }
.field-error { color: var(--bad); font-size: 0.92rem; margin: 0.3rem 0 0; }
button, .button { font: inherit; font-weight: 600; padding: 0.55rem 1.1rem; border: 0; border-radius: 6px; background: var(--accent); color: var(--accent-ink);
  cursor: pointer; text-decoration: none; display: inline-block; }
button.quiet { background: transparent; color: #fff; border: 1px solid #8e98ad; padding: 0.3rem 0.8rem; font-weight: 500; }
button.wide { width: 100%; }
.notice { border-radius: 8px; padding: 0.8rem 1rem; margin-bottom: 1rem; }
.notice.bad { background: var(--bad-bg); color: var(--bad); }
.notice.ok { background: var(--ok-bg); color: var(--ok); }
.notice.info { background: #eef2fc; color: #1f3a93; }
.below { margin-top: 1rem; text-align: center; }
.period { display: flex; flex-wrap: wrap; gap: 0.75rem 1rem; align-items: flex-end; }
.period .field { margin: 0; min-width: 10rem; }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(10.5rem, 1fr)); gap: 1rem; margin-bottom: 1.25rem; padding: 0; list-style: none; }
.tile { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 0.9rem 1rem; }
.tile .name { color: var(--muted); font-size: 0.9rem; display: block; }
.tile .value { font-size: 1.4rem; font-weight: 700; font-variant-numeric: tabular-nums; display: block; overflow-wrap: anywhere; }
.tile .unit { font-size: 0.85rem; font-weight: 600; color: var(--muted); }
.tile.key { border-color: var(--accent); box-shadow: inset 0 0 0 1px var(--accent); }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: right; padding: 0.55rem 0.7rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
th:first-child, td:first-child { text-align: left; white-space: normal; overflow-wrap: anywhere; }
thead th { color: var(--muted); font-weight: 600; font-size: 0.9rem; }
tfoot td { font-weight: 700; border-bottom: 0; }
.chart { margin: 0; }
.chart svg { width: 100%; height: auto; display: block; }
.legend { display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; margin: 0.5rem 0 0; padding: 0; list-style: none; color: var(--muted); font-size: 0.92rem; }
.legend .swatch { display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 2px; margin-right: 0.4rem; vertical-align: -0.05rem; }
.row-head { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: baseline; justify-content: space-between; }
th.left, td.left { text-align: left; }
td.wrap { white-space: normal; overflow-wrap: anywhere; min-width: 12rem; }
code.address { font-size: 0.95rem; background: #eef1f7; padding: 0.15rem 0.4rem; border-radius: 4px; overflow-wrap: anywhere; }
button.secondary { background: #fff; color: var(--accent); border: 1px solid var(--accent); }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1.25rem; padding-top: 1rem; border-top: 1px solid var(--line); }
.actions form { margin: 0; }
.notice p.tight { margin: 0.2rem 0; }
dl.pairs { display: grid; grid-template-columns: max-content 1fr; gap: 0.35rem 1.25rem; margin: 0 0 1rem; }
dl.pairs div { display: contents; }
dl.pairs dt, dl.pairs dd { margin: 0; }
table.log th:first-child { white-space: nowrap; overflow-wrap: normal; }
table.log td.wrap { min-width: 9rem; }
td.outcome-delivered { color: var(--ok); } td.outcome-failed { color: var(--bad); }
@media (max-width: 40rem) { main { padding: 1rem 0.75rem 2rem; } .card { padding: 1rem; } }
`;

/** The CSP source that allows exactly this stylesheet. */
export const portalCssHash = `'sha256-${createHash('sha256').update(portalCss, 'utf8').digest('base64')}'`;
