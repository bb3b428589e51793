/**
 * Templates in the console: list, read, create, change, archive and restore
 * them; preview one (saved or the editor's draft) against a real player; send
 * a test of an email template to the signed-in operator's own address
 * (functions/back-office/templates.ts).
 */
import { editors, everyone, sessionTables, type ConsoleRouteDefinition } from '../route';
import { templateBodyBytes, validCreateTemplate, validListTemplatesQuery, validRenderTemplate, validUpdateTemplate } from './schemas';

// A change reads the template (and, on create, counts the application's) and writes it; a webhook's URL is checked
// against the postbacks' development hosts.
const changeTables = { ...sessionTables, campaigns: 'readwrite', auditLog: 'write' } as const;
// A preview reads the template, the player and the application's name.
const renderTables = { ...sessionTables, campaigns: 'read', profiles: 'read', apps: 'read' } as const;

export const routes = [
  {
    id: 'ConsoleListTemplates',
    method: 'GET',
    path: '/console/api/templates',
    roles: everyone,
    mutates: false,
    query: validListTemplatesQuery,
    tables: { ...sessionTables, campaigns: 'read' },
  },
  {
    id: 'ConsoleGetTemplate',
    method: 'GET',
    path: '/console/api/templates/{template_id}',
    roles: everyone,
    mutates: false,
    tables: { ...sessionTables, campaigns: 'read' },
  },
  {
    id: 'ConsoleCreateTemplate',
    method: 'POST',
    path: '/console/api/templates',
    roles: editors,
    mutates: true,
    body: validCreateTemplate,
    maxBodyBytes: templateBodyBytes,
    tables: changeTables,
    postbackHosts: true,
  },
  {
    id: 'ConsoleUpdateTemplate',
    method: 'POST',
    path: '/console/api/templates/{template_id}',
    roles: editors,
    mutates: true,
    body: validUpdateTemplate,
    maxBodyBytes: templateBodyBytes,
    tables: changeTables,
    postbackHosts: true,
  },
  {
    id: 'ConsoleArchiveTemplate',
    method: 'POST',
    path: '/console/api/templates/{template_id}/archive',
    roles: editors,
    mutates: true,
    maxBodyBytes: 1024,
    tables: changeTables,
  },
  {
    id: 'ConsoleRestoreTemplate',
    method: 'POST',
    path: '/console/api/templates/{template_id}/restore',
    roles: editors,
    mutates: true,
    maxBodyBytes: 1024,
    tables: changeTables,
  },
  {
    // A POST that changes nothing: a draft is too big for a query string. Viewers may preview what they may read.
    id: 'ConsolePreviewTemplate',
    method: 'POST',
    path: '/console/api/template-previews',
    roles: everyone,
    mutates: true,
    body: validRenderTemplate,
    maxBodyBytes: templateBodyBytes,
    tables: renderTables,
    postbackHosts: true,
  },
  {
    // Mails the signed-in user only: the channels and senders it goes out through, SES, and the audit log.
    id: 'ConsoleTestSendTemplate',
    method: 'POST',
    path: '/console/api/template-test-sends',
    roles: editors,
    mutates: true,
    body: validRenderTemplate,
    maxBodyBytes: templateBodyBytes,
    tables: { ...renderTables, channels: 'read', senders: 'read', auditLog: 'write' },
    email: 'send',
    postbackHosts: true,
  },
] as const satisfies readonly ConsoleRouteDefinition[];
