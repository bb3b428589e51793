/** Rules only the admin pages need, on top of the design system's components (joined into the one stylesheet by ../stylesheet.ts). */
export const adminCss = `
.admin-settings .inline-form { display: flex; flex-wrap: wrap; gap: var(--urm-space-2) var(--urm-space-3); align-items: flex-end; margin: 0 0 var(--urm-space-4); }
.admin-settings .inline-form .field { margin: 0; flex: 0 1 24rem; }
.admin-settings .sub-section { margin-top: var(--urm-space-5); padding-top: var(--urm-space-4); border-top: 1px solid var(--urm-line); }
.messaging-rules fieldset { border: 0; margin: 0 0 var(--urm-space-4); padding: 0; min-width: 0; }
.messaging-rules fieldset + fieldset { border-top: 1px solid var(--urm-line); padding-top: var(--urm-space-4); }
.messaging-rules legend { float: left; width: 100%; font-size: var(--urm-text-md); font-weight: 700; color: var(--urm-ink); margin-bottom: var(--urm-space-3); padding: 0; }
.messaging-rules legend + * { clear: left; }
.messaging-caps, .messaging-quiet { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 13rem), 1fr)); gap: 0 var(--urm-space-4); }
.messaging-topic { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 2fr) auto; gap: 0 var(--urm-space-3); align-items: end; }
.messaging-topic > button { margin-bottom: var(--urm-space-3); }
@media (max-width: 40rem) { .messaging-topic { grid-template-columns: minmax(0, 1fr); } .messaging-topic > button { justify-self: start; } }
.admin-settings .shown-once { background: var(--urm-danger-soft); border-radius: var(--urm-radius-md); padding: var(--urm-space-3) var(--urm-space-4); margin: 0 0 var(--urm-space-4); }
.admin-settings .shown-once p:last-child { margin-bottom: 0; }
.admin-settings .shown-once code.secret { display: inline-block; background: var(--urm-surface); padding: var(--urm-space-1) var(--urm-space-2); }
.admin-settings input.currency { max-width: 7rem; }
.admin-settings .form-row fieldset { margin-bottom: var(--urm-space-3); }
.admin-settings .form-row fieldset .choice { display: flex; }
table.money-map { margin: 0 0 var(--urm-space-1); }
table.money-map caption { padding: 0 0 var(--urm-space-1); color: var(--urm-ink); font-weight: 600; font-size: var(--urm-text-md); }
table.money-map thead th { position: static; background: none; padding: var(--urm-space-1) var(--urm-space-2) var(--urm-space-1) 0; }
table.money-map td { padding: var(--urm-space-1) var(--urm-space-2) var(--urm-space-1) 0; border-bottom: 0; vertical-align: middle; }
table.money-map select { min-width: 8.5rem; }
table.money-map td.row-action { width: 1%; padding-right: 0; }
table.money-map tbody tr:hover td { background: none; }
table.money-map tr.row-error td { padding-top: 0; }
table.money-map tr.row-error .field-error { margin: 0; }
.user-email { display: block; font-weight: 400; color: var(--urm-muted); font-size: var(--urm-text-sm); overflow-wrap: anywhere; min-width: 10rem; }
.role-form .cluster { flex-wrap: nowrap; }
.role-form select { width: auto; min-height: 1.75rem; padding: 0.15rem 0.5rem; font-size: var(--urm-text-sm); }
.role-form .field-error, .role-form .role-changed { margin: var(--urm-space-1) 0 0; font-size: var(--urm-text-sm); }
.role-form .role-changed { color: var(--urm-success); }
ul.details { list-style: none; margin: 0; padding: 0; min-width: 14rem; }
ul.details li + li { margin-top: 0.15rem; }
ul.details .detail-name { color: var(--urm-muted); }
ul.details .detail-name::after { content: ":"; }
`;
