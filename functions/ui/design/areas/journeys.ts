/** Rules only the journeys pages need, on top of the design system's components (joined into the one stylesheet by ../stylesheet.ts). */
export const journeysCss = `
.journey-entry { display: inline-block; min-width: 9rem; }
.journey-summary { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-3); align-items: center; }
.journey-actions { display: flex; flex-direction: column; align-items: flex-end; gap: var(--urm-space-2); }
.journey-page { display: grid; gap: var(--urm-space-4); min-width: 0; }
.journey-page > * { min-width: 0; margin: 0; }
.journey-columns { display: grid; gap: var(--urm-space-4); grid-template-columns: minmax(0, 1fr); align-items: start; }
.journey-columns > * { min-width: 0; margin: 0; }
.journey-side { display: grid; gap: var(--urm-space-4); min-width: 0; }
.journey-side > * { margin: 0; }
@media (min-width: 72rem) { .journey-columns { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); } }
.journey-steps { list-style: none; margin: 0; padding: 0; counter-reset: none; }
.journey-step { position: relative; padding: var(--urm-space-3) var(--urm-space-4) var(--urm-space-3) var(--urm-space-4); border: 1px solid var(--urm-line); border-left: 4px solid var(--urm-accent); border-radius: var(--urm-radius-md); background: var(--urm-surface); min-width: 0; }
.journey-step + .journey-step { margin-top: var(--urm-space-5); }
/* The connector between two steps: the path a player takes, drawn in the gap. */
.journey-step + .journey-step::before { content: ""; position: absolute; left: 1.55rem; top: calc(-1 * var(--urm-space-5) - 1px); height: var(--urm-space-5); border-left: 2px dashed var(--urm-line-strong); }
.journey-step[data-type="wait"], .journey-step[data-type="wait_until"], .journey-step[data-type="wait_for_event"] { border-left-color: var(--urm-warning); }
.journey-step[data-type="branch"], .journey-step[data-type="split"] { border-left-color: var(--urm-info); }
.journey-step[data-type="exit"] { border-left-color: var(--urm-line-strong); }
.journey-step:target { box-shadow: 0 0 0 3px var(--urm-focus); }
.journey-step-head { display: flex; flex-wrap: wrap; gap: var(--urm-space-1) var(--urm-space-2); align-items: center; }
.journey-step-number { display: inline-flex; align-items: center; justify-content: center; width: 1.5rem; height: 1.5rem; border-radius: 50%; background: var(--urm-accent-soft); color: var(--urm-accent-strong); font-size: var(--urm-text-sm); font-weight: 700; flex: none; }
.journey-step-type { font-weight: 600; }
.journey-step-id { font-size: var(--urm-text-sm); }
.journey-step-count { margin-left: auto; font-size: var(--urm-text-sm); color: var(--urm-muted); font-variant-numeric: tabular-nums; white-space: nowrap; }
.journey-step-count.busy { color: var(--urm-accent-strong); font-weight: 600; background: var(--urm-accent-soft); padding: 0 var(--urm-space-2); border-radius: var(--urm-radius-pill); }
.journey-step-text { margin: var(--urm-space-2) 0 var(--urm-space-1); overflow-wrap: anywhere; }
.journey-step .condition-sentences { margin: 0 0 var(--urm-space-2); }
.journey-step-ways { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: var(--urm-space-1) var(--urm-space-4); font-size: var(--urm-text-sm); color: var(--urm-ink-soft); }
.journey-way-when { font-weight: 600; margin-right: var(--urm-space-1); }
.journey-older { margin: var(--urm-space-4) 0 0; font-size: var(--urm-text-sm); }
.journey-changed { margin: var(--urm-space-3) 0 0; font-size: var(--urm-text-sm); }
.journey-page .kpis { grid-template-columns: repeat(auto-fit, minmax(min(100%, 12rem), 1fr)); }
.journey-form { max-width: 60rem; }
.journey-form > .card, .journey-form > .alert { margin-bottom: var(--urm-space-4); }
.journey-choices { border: 0; padding: 0; margin: 0 0 var(--urm-space-3); }
.journey-choices legend { padding: 0; margin-bottom: var(--urm-space-2); }
.journey-choices .choice { margin-bottom: var(--urm-space-2); }
.journey-two { display: grid; gap: var(--urm-space-4) var(--urm-space-6); grid-template-columns: repeat(auto-fit, minmax(min(100%, 18rem), 1fr)); align-items: start; }
.journey-rows { list-style: none; margin: 0 0 var(--urm-space-2); padding: 0; }
.journey-row { display: flex; flex-wrap: wrap; gap: 0 var(--urm-space-3); align-items: flex-end; }
.journey-row > .field { flex: 1 1 10rem; }
.journey-row > button { margin-bottom: var(--urm-space-4); }
.journey-cards { list-style: none; margin: 0 0 var(--urm-space-4); padding: 0; }
.journey-card { position: relative; border: 1px solid var(--urm-line-strong); border-radius: var(--urm-radius-lg); padding: var(--urm-space-4); background: var(--urm-surface); min-width: 0; }
.journey-card + .journey-card { margin-top: var(--urm-space-5); }
.journey-card + .journey-card::before { content: ""; position: absolute; left: 1.7rem; top: calc(-1 * var(--urm-space-5) - 1px); height: var(--urm-space-5); border-left: 2px dashed var(--urm-line-strong); }
.journey-card-head { display: flex; flex-wrap: wrap; gap: var(--urm-space-2); align-items: center; margin-bottom: var(--urm-space-3); }
.journey-card-head h3 { margin: 0; display: inline-flex; gap: var(--urm-space-2); align-items: center; font-size: var(--urm-text-base); }
.journey-card-tools { margin-left: auto; gap: var(--urm-space-1); }
button.danger-text { color: var(--urm-danger); }
button.danger-text:hover { background: var(--urm-danger-soft); color: var(--urm-danger); }
.journey-duration { border: 0; padding: 0; margin: 0 0 var(--urm-space-4); }
.journey-duration legend { padding: 0; margin-bottom: var(--urm-space-1); }
.journey-duration-parts { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-4); }
.journey-duration-part { display: inline-flex; align-items: center; gap: var(--urm-space-2); font-weight: 400; margin: 0; }
.journey-duration-part input { width: 5.5rem; }
textarea.journey-condition { min-height: 7rem; }
.journey-condition-words { margin-top: var(--urm-space-2); display: flex; flex-wrap: wrap; gap: var(--urm-space-1) var(--urm-space-2); align-items: baseline; font-size: var(--urm-text-sm); }
.journey-add { display: flex; flex-wrap: wrap; gap: var(--urm-space-2); align-items: center; padding: var(--urm-space-3); border: 1px dashed var(--urm-line-strong); border-radius: var(--urm-radius-md); background: var(--urm-surface-sunken); }
.journey-errors { list-style: none; padding: 0; margin: var(--urm-space-2) 0 0; }
.player-journeys { list-style: none; margin: 0; padding: 0; }
.player-journey + .player-journey { border-top: 1px solid var(--urm-line); margin-top: var(--urm-space-3); padding-top: var(--urm-space-3); }
.player-journey-head { display: flex; flex-wrap: wrap; gap: var(--urm-space-1) var(--urm-space-2); align-items: center; font-weight: 600; }
.player-journey-head .muted { font-weight: 400; font-size: var(--urm-text-sm); }
.player-journey-where { margin: var(--urm-space-1) 0; font-size: var(--urm-text-md); overflow-wrap: anywhere; }
.player-journey-none { margin: 0; font-size: var(--urm-text-sm); }
`;
