/** Rules only the campaigns pages need (templates; journeys and broadcasts add theirs), on top of the design system's components (joined by ../stylesheet.ts). */
export const campaignsCss = `
.template-name { display: flex; flex-direction: column; gap: 2px; min-width: 10rem; }
.template-name small { display: inline-flex; flex-wrap: wrap; gap: var(--urm-space-2); align-items: center; font-weight: 400; }
.template-languages { display: inline-flex; flex-wrap: wrap; gap: var(--urm-space-1); }
.template-languages .language { padding: 0 var(--urm-space-2); border: 1px solid var(--urm-line-strong); border-radius: var(--urm-radius-sm); font-size: var(--urm-text-sm); font-family: var(--urm-font-mono); }
.template-languages .language.default { border-color: var(--urm-accent); color: var(--urm-accent-strong); background: var(--urm-accent-soft); }
.list-filters { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-4); align-items: center; margin: 0 0 var(--urm-space-3); }
.template-editor { display: grid; gap: var(--urm-space-4); grid-template-columns: minmax(0, 1fr); align-items: start; }
@media (min-width: 75rem) { .template-editor { grid-template-columns: minmax(0, 3fr) minmax(20rem, 2fr); } .template-preview { position: sticky; top: var(--urm-space-4); } }
.template-editor > * { min-width: 0; }
.template-fields { border: 0; padding: 0; margin: 0; min-width: 0; }
.template-form .form-row { display: grid; gap: 0 var(--urm-space-4); grid-template-columns: repeat(auto-fit, minmax(min(100%, 14rem), 1fr)); }
.language-bar { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-4); align-items: flex-end; justify-content: space-between; border-bottom: 1px solid var(--urm-line); margin-bottom: var(--urm-space-4); }
.language-tabs { display: flex; flex-wrap: wrap; gap: var(--urm-space-1); margin-bottom: -1px; }
.language-tabs [role="tab"] { border: 1px solid transparent; border-bottom: 0; border-radius: var(--urm-radius-md) var(--urm-radius-md) 0 0; background: transparent; color: var(--urm-muted); font-family: var(--urm-font-mono); gap: var(--urm-space-1); }
.language-tabs [role="tab"] small { font-family: var(--urm-font-sans); font-weight: 400; }
.language-tabs [role="tab"][aria-selected="true"] { background: var(--urm-surface); border-color: var(--urm-line); color: var(--urm-ink); box-shadow: inset 0 3px 0 var(--urm-accent); }
.language-tabs .tab-problem { display: inline-flex; align-items: center; justify-content: center; width: 1.1rem; height: 1.1rem; border-radius: 50%; background: var(--urm-danger); color: #fff; font-size: var(--urm-text-xs); }
.add-language { display: flex; gap: var(--urm-space-2); align-items: center; padding-bottom: var(--urm-space-2); }
.add-language input { width: 7rem; min-height: 1.75rem; padding: 0.2rem 0.5rem; }
.language-panel { margin-bottom: var(--urm-space-3); }
textarea.template-code { font-size: var(--urm-text-sm); line-height: 1.5; tab-size: 2; }
button.remove-language { color: var(--urm-danger); }
.template-reference { font-size: var(--urm-text-sm); }
.template-reference summary { cursor: pointer; color: var(--urm-accent-strong); font-weight: 600; }
.template-reference dl { display: grid; gap: var(--urm-space-2); margin-top: var(--urm-space-2); }
.template-reference dl > div { display: grid; gap: var(--urm-space-1) var(--urm-space-3); grid-template-columns: minmax(0, 1fr); }
@media (min-width: 48rem) { .template-reference dl > div { grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); } }
.template-reference dt code { font-size: var(--urm-text-xs); }
.template-reference dd { margin: 0; color: var(--urm-muted); }
.preview-inputs .cluster { margin-bottom: var(--urm-space-2); }
.preview-output { margin-top: var(--urm-space-4); border-top: 1px solid var(--urm-line); padding-top: var(--urm-space-4); }
.preview-language { display: flex; flex-wrap: wrap; gap: var(--urm-space-2); align-items: baseline; font-size: var(--urm-text-sm); }
.preview-meta { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: var(--urm-space-1) var(--urm-space-3); margin-bottom: var(--urm-space-3); }
.preview-meta dt { font-weight: 600; color: var(--urm-muted); }
.preview-meta dd { margin: 0; font-weight: 600; }
.preview-text { max-height: 24rem; overflow: auto; font-size: var(--urm-text-sm); background: var(--urm-surface-sunken); }
.preview-html summary { cursor: pointer; color: var(--urm-accent-strong); font-size: var(--urm-text-sm); }
.preview-html pre { max-height: 20rem; overflow: auto; font-size: var(--urm-text-xs); }
.preview-note { font-size: var(--urm-text-sm); margin-top: var(--urm-space-3); }
.push-preview { display: grid; gap: var(--urm-space-1); padding: var(--urm-space-3); border: 1px solid var(--urm-line); border-radius: var(--urm-radius-lg); box-shadow: var(--urm-shadow-sm); background: var(--urm-surface); max-width: 24rem; }
.push-preview p { margin: 0; }
`;
