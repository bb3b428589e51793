/**
 * The player's email preference page (affiliate-portal/pages/unsubscribe.tsx),
 * served by the portal in the application's name: joined into the portals' stylesheet only.
 */
export const preferencesCss = `
.portal:has(.preferences) header.bar .inner { max-width: 28rem; }
.portal .preferences h1 { font-size: var(--urm-text-xl); margin-bottom: var(--urm-space-1); }
.portal .preferences .lead { color: var(--urm-muted); margin: 0 0 var(--urm-space-4); }
.portal .preferences .alert { margin-bottom: var(--urm-space-4); }
.portal .preferences fieldset { padding: var(--urm-space-3) var(--urm-space-4) var(--urm-space-1); }
.portal .preferences .hint { margin: 0 0 var(--urm-space-2); color: var(--urm-muted); font-size: var(--urm-text-sm); }
.portal .topic-list { list-style: none; margin: 0; padding: 0; }
.portal .topic-list li { display: flex; align-items: center; gap: var(--urm-space-3); padding: var(--urm-space-3) 0; border-top: 1px solid var(--urm-line); }
.portal .topic-list li:first-child { border-top: 0; }
.portal .topic-list input[type="checkbox"] { width: 1.25rem; height: 1.25rem; flex: none; }
.portal .topic-list label { display: flex; flex-wrap: wrap; align-items: center; gap: var(--urm-space-2); margin: 0; font-weight: 500; cursor: pointer; }
.portal .leave-all { margin-top: var(--urm-space-6); padding-top: var(--urm-space-4); border-top: 1px solid var(--urm-line); }
.portal .leave-all h2 { font-size: var(--urm-text-lg); margin: 0 0 var(--urm-space-1); }
.portal .leave-all p { margin: 0 0 var(--urm-space-3); color: var(--urm-ink-soft); }
.portal .preferences .account-note { margin: var(--urm-space-5) 0 0; color: var(--urm-muted); font-size: var(--urm-text-sm); }
`;
