/** Rules only the console's Home needs, on top of the design system's components (joined into the one stylesheet by ../stylesheet.ts). */
export const homeCss = `
.home-period { margin: 0 0 var(--urm-space-3); font-size: var(--urm-text-md); }
section[aria-labelledby="card-figures"] .kpis { grid-template-columns: repeat(auto-fit, minmax(min(100%, 9rem), 1fr)); }
.home-side { display: grid; gap: 0; min-width: 0; }
ol.largest-segments, ul.not-sent { list-style: none; margin: 0; padding: 0; }
ol.largest-segments > li, ul.not-sent > li { display: flex; flex-wrap: wrap; gap: var(--urm-space-1) var(--urm-space-3); align-items: baseline; justify-content: space-between; padding: var(--urm-space-2) 0; border-bottom: 1px solid var(--urm-line); }
ol.largest-segments > li:last-child, ul.not-sent > li:last-child { border-bottom: 0; }
.segment-name { display: inline-flex; flex-wrap: wrap; gap: var(--urm-space-2); align-items: center; min-width: 0; }
.segment-size { color: var(--urm-ink-soft); font-size: var(--urm-text-md); }
ul.not-sent > li { flex-wrap: nowrap; }
ul.not-sent > li > .num { flex: none; }
`;
