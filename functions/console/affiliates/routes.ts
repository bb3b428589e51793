/**
 * Affiliates in the console: the use cases of GET /api/affiliates, its report
 * and the admin command line (functions/back-office/affiliates.ts, plans.ts,
 * affiliate-report.ts, affiliate-links.ts, postbacks.ts). Plans and postback
 * URLs live in the affiliates table.
 */
import { validReportRangeQuery } from '../../domain/report-range';
import { postbackSecretPattern } from '../../domain/postbacks';
import { editors, everyone, sessionTables, type ConsoleRouteDefinition } from '../route';
import {
  validAffiliatePostbacksQuery,
  validAssignPlanBody,
  validConsoleAffiliatesQuery,
  validCreateAffiliateLinkBody,
  validCreatePlanBody,
  validEditPlanBody,
  validSetAffiliateStatusBody,
  validTraceQuery,
  validUpdateAffiliatePostbacksBody,
} from './schemas';

/** What a report reads: the affiliate and its plan (affiliates), the currency (apps), the figures (funnel), link names (links, by affiliate). */
export const reportGrants = {
  tables: { ...sessionTables, apps: 'read', affiliates: 'read', funnel: 'read', links: 'read' },
  indexes: { links: ['by-affiliate'] },
} as const;

export const routes = [
  {
    id: 'ConsoleListAffiliates',
    method: 'GET',
    path: '/console/api/affiliates',
    roles: everyone,
    mutates: false,
    query: validConsoleAffiliatesQuery,
    tables: { ...sessionTables, affiliates: 'read' },
  },
  {
    id: 'ConsoleGetAffiliate',
    method: 'GET',
    path: '/console/api/affiliates/{affiliate_id}',
    roles: everyone,
    mutates: false,
    tables: { ...sessionTables, affiliates: 'read', links: 'read' },
    indexes: { links: ['by-affiliate'] },
  },
  {
    id: 'ConsoleSetAffiliateStatus',
    method: 'POST',
    path: '/console/api/affiliates/{affiliate_id}/status',
    roles: editors,
    mutates: true,
    body: validSetAffiliateStatusBody,
    maxBodyBytes: 1024,
    tables: { ...sessionTables, apps: 'read', affiliates: 'readwrite', auditLog: 'write' },
  },
  {
    id: 'ConsoleAssignAffiliatePlan',
    method: 'POST',
    path: '/console/api/affiliates/{affiliate_id}/plan',
    roles: editors,
    mutates: true,
    body: validAssignPlanBody,
    maxBodyBytes: 1024,
    tables: { ...sessionTables, apps: 'read', affiliates: 'readwrite', auditLog: 'write' },
  },
  {
    id: 'ConsoleListPlans',
    method: 'GET',
    path: '/console/api/plans',
    roles: everyone,
    mutates: false,
    tables: { ...sessionTables, apps: 'read', affiliates: 'read' },
  },
  {
    id: 'ConsoleCreatePlan',
    method: 'POST',
    path: '/console/api/plans',
    roles: editors,
    mutates: true,
    body: validCreatePlanBody,
    maxBodyBytes: 4 * 1024,
    // Plans live in the affiliates table (a new item, never an update).
    tables: { ...sessionTables, apps: 'read', affiliates: 'write', auditLog: 'write' },
  },
  {
    // A new version of the plan: the current item updated and the version written, in one transaction.
    id: 'ConsoleEditPlan',
    method: 'POST',
    path: '/console/api/plans/{plan_id}',
    roles: editors,
    mutates: true,
    body: validEditPlanBody,
    maxBodyBytes: 4 * 1024,
    tables: { ...sessionTables, apps: 'read', affiliates: 'readwrite', auditLog: 'write' },
  },
  {
    id: 'ConsoleArchivePlan',
    method: 'POST',
    path: '/console/api/plans/{plan_id}/archive',
    roles: editors,
    mutates: true,
    maxBodyBytes: 1024,
    // apps: the default plan of new affiliates is not archived.
    tables: { ...sessionTables, apps: 'read', affiliates: 'readwrite', auditLog: 'write' },
  },
  {
    id: 'ConsolePlanVersions',
    method: 'GET',
    path: '/console/api/plans/{plan_id}/versions',
    roles: everyone,
    mutates: false,
    tables: { ...sessionTables, apps: 'read', affiliates: 'read' },
  },
  {
    // The same report as GET /api/affiliates/{affiliate_id}/report answers a server key.
    id: 'ConsoleAffiliateReport',
    method: 'GET',
    path: '/console/api/affiliates/{affiliate_id}/report',
    roles: everyone,
    mutates: false,
    query: validReportRangeQuery,
    ...reportGrants,
  },
  {
    // The report as the affiliate portal's CSV download makes it, named after the affiliate.
    id: 'ConsoleAffiliateReportCsv',
    method: 'GET',
    path: '/console/api/affiliates/{affiliate_id}/report.csv',
    roles: everyone,
    mutates: false,
    query: validReportRangeQuery,
    ...reportGrants,
  },
  {
    id: 'ConsoleAffiliateTrace',
    method: 'GET',
    path: '/console/api/affiliates/{affiliate_id}/trace',
    roles: everyone,
    mutates: false,
    query: validTraceQuery,
    // The attributed players (funnel) and their money events (timeline, newest first by its page keys).
    tables: { ...sessionTables, apps: 'read', affiliates: 'read', funnel: 'read', timeline: 'read' },
  },
  {
    id: 'ConsoleCreateAffiliateLink',
    method: 'POST',
    path: '/console/api/affiliates/{affiliate_id}/links',
    roles: editors,
    mutates: true,
    body: validCreateAffiliateLinkBody,
    maxBodyBytes: 8 * 1024,
    // apps: the site origins a landing URL must be on; affiliates: that the affiliate is the application's.
    tables: { ...sessionTables, apps: 'read', affiliates: 'read', links: 'write', auditLog: 'write' },
  },
  {
    // Whether postbacks are on (never the URL: its template and tokens are the affiliate's) and the delivery log, newest attempt first.
    id: 'ConsoleAffiliatePostbacks',
    method: 'GET',
    path: '/console/api/affiliates/{affiliate_id}/postbacks',
    roles: everyone,
    mutates: false,
    query: validAffiliatePostbacksQuery,
    // Whether a URL is set (affiliates), and the delivery log in the affiliate's funnel partition.
    tables: { ...sessionTables, apps: 'read', affiliates: 'read', funnel: 'read' },
  },
  {
    // An operator sets an affiliate's postback URL, turns postbacks off, or makes a new signing secret; a secret just made is in this answer only.
    id: 'ConsoleUpdateAffiliatePostbacks',
    method: 'POST',
    path: '/console/api/affiliates/{affiliate_id}/postbacks',
    roles: editors,
    mutates: true,
    body: validUpdateAffiliatePostbacksBody,
    maxBodyBytes: 8 * 1024,
    tables: { ...sessionTables, apps: 'read', affiliates: 'readwrite', auditLog: 'write' },
    // As AffiliateUpdatePostbacks: whether a signing secret exists (asked, never read), a new one made; only postback secrets may be written.
    secretChecks: [postbackSecretPattern],
    secretWrites: [postbackSecretPattern],
    postbackHosts: true,
  },
] as const satisfies readonly ConsoleRouteDefinition[];
