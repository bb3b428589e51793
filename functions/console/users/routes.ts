/**
 * Who is signed in and signing out (every role), and the application's users,
 * their roles and the audit log (admins): the session is the enterprise
 * portal's (GET /redirect starts it, functions/enterprise-portal).
 */
import { admins, everyone, sessionTables, type ConsoleRouteDefinition } from '../route';
import { validAuditQuery, validChangeRoleBody, validUsersQuery } from './schemas';

export const routes = [
  {
    id: 'ConsoleSession',
    method: 'GET',
    path: '/console/api/session',
    roles: everyone,
    mutates: false,
    // apps: the application's name.
    tables: { ...sessionTables, apps: 'read' },
  },
  {
    // State-changing: it needs the session's X-CSRF-Token, so another site cannot sign anyone out.
    id: 'ConsoleSignOut',
    method: 'POST',
    path: '/console/api/sign_out',
    roles: everyone,
    mutates: true,
    maxBodyBytes: 1024,
    tables: { ...sessionTables },
  },
  {
    id: 'ConsoleListUsers',
    method: 'GET',
    path: '/console/api/users',
    roles: admins,
    mutates: false,
    query: validUsersQuery,
    tables: { ...sessionTables },
    indexes: { enterpriseUsers: ['by-app'] },
  },
  {
    id: 'ConsoleChangeRole',
    method: 'POST',
    path: '/console/api/users/{user_id}/role',
    roles: admins,
    mutates: true,
    body: validChangeRoleBody,
    maxBodyBytes: 1024,
    tables: { ...sessionTables, enterpriseUsers: 'readwrite', auditLog: 'write' },
  },
  {
    id: 'ConsoleAudit',
    method: 'GET',
    path: '/console/api/audit',
    roles: admins,
    mutates: false,
    query: validAuditQuery,
    tables: { ...sessionTables, auditLog: 'read' },
  },
] as const satisfies readonly ConsoleRouteDefinition[];
