/**
 * Statements in the console: an affiliate's by month, approving one, manual
 * adjustments, payments, the minimum payout and the month's CSV for
 * accounting (functions/back-office/statements.ts). Statements, adjustments
 * and payout details live in the affiliates table; a statement's figures are
 * the affiliate report's.
 */
import { admins, editors, everyone, sessionTables, type ConsoleRouteDefinition } from '../route';
import { validAdjustmentBody, validPaymentBody, validPayoutSettingsBody, validStatementsCsvQuery, validStatementsQuery } from './schemas';

/** A statement is computed from the affiliate's report: its reads, and the statements and adjustments beside the affiliate. */
const computed = {
  tables: { ...sessionTables, apps: 'read', affiliates: 'read', funnel: 'read', links: 'read' },
  indexes: { links: ['by-affiliate'] },
} as const;

export const routes = [
  {
    id: 'ConsoleAffiliateStatements',
    method: 'GET',
    path: '/console/api/affiliates/{affiliate_id}/statements',
    roles: everyone,
    mutates: false,
    query: validStatementsQuery,
    ...computed,
  },
  {
    id: 'ConsoleApproveStatement',
    method: 'POST',
    path: '/console/api/affiliates/{affiliate_id}/statements/{month}/approve',
    roles: editors,
    mutates: true,
    maxBodyBytes: 1024,
    tables: { ...computed.tables, affiliates: 'readwrite', auditLog: 'write' },
    indexes: computed.indexes,
  },
  {
    id: 'ConsoleAddAdjustment',
    method: 'POST',
    path: '/console/api/affiliates/{affiliate_id}/statements/{month}/adjustments',
    roles: editors,
    mutates: true,
    body: validAdjustmentBody,
    maxBodyBytes: 2 * 1024,
    tables: { ...sessionTables, affiliates: 'readwrite', auditLog: 'write' },
  },
  {
    id: 'ConsoleMarkStatementPaid',
    method: 'POST',
    path: '/console/api/affiliates/{affiliate_id}/statements/{month}/payment',
    roles: editors,
    mutates: true,
    body: validPaymentBody,
    maxBodyBytes: 2 * 1024,
    tables: { ...sessionTables, affiliates: 'readwrite', auditLog: 'write' },
  },
  {
    // Every affiliate's approved statement of the month: the affiliates, their statements and payout methods (affiliates table).
    id: 'ConsoleStatementsCsv',
    method: 'GET',
    path: '/console/api/statements.csv',
    roles: everyone,
    mutates: false,
    query: validStatementsCsvQuery,
    tables: { ...sessionTables, affiliates: 'read' },
  },
  {
    id: 'ConsoleGetPayoutSettings',
    method: 'GET',
    path: '/console/api/payout-settings',
    roles: everyone,
    mutates: false,
    tables: { ...sessionTables, apps: 'read' },
  },
  {
    id: 'ConsoleSetPayoutSettings',
    method: 'POST',
    path: '/console/api/payout-settings',
    roles: admins,
    mutates: true,
    body: validPayoutSettingsBody,
    maxBodyBytes: 1024,
    tables: { ...sessionTables, apps: 'readwrite', auditLog: 'write' },
  },
] as const satisfies readonly ConsoleRouteDefinition[];
