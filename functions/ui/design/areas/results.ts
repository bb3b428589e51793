/** Rules only the console's campaign results need (joined into the one stylesheet by ../stylesheet.ts). */
export const resultsCss = `
.results-note { margin: 0 0 var(--urm-space-3); font-size: var(--urm-text-md); }
table.results-money th[scope="row"] { font-weight: 500; white-space: nowrap; }
table.results-money td.down { color: var(--urm-danger); }
dl.results-definitions { grid-template-columns: minmax(8rem, max-content) minmax(0, 1fr); }
dl.results-definitions dt { color: var(--urm-ink); font-weight: 600; }
/* A narrow screen reads each term above its meaning: two columns would leave the meaning a word wide. */
@media (max-width: 48rem) {
  dl.results-definitions { grid-template-columns: minmax(0, 1fr); gap: var(--urm-space-1); }
  dl.results-definitions dd { margin-bottom: var(--urm-space-3); color: var(--urm-ink-soft); }
}
`;
