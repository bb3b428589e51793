/**
 * The affiliate portal's routes (docs/api.md, "The affiliate portal"), each
 * declared once: its address, its grants, its body bound, and what the
 * portal checks before its work (make-handler.ts builds those checks from
 * here, checks.ts has them). Pure data: the manifest imports it.
 */
import { postbackSecretPattern } from '../domain/postbacks';
import { unsubscribeKeyPattern } from '../domain/unsubscribe-token';
import type { RouteDefinition } from '../manifest/routes';

/** Forms are small: anything larger is not one of ours (request.ts formOf). */
export const maxFormBytes = 8 * 1024;

export interface PortalRouteDefinition extends RouteDefinition {
  /**
   * Who may reach the route's work. `anyone`: the sign-in and reset pages.
   * `session-holder`: whoever holds a session cookie, live or not (sign-out
   * ends the session it names; without a cookie, on to `login`).
   * `signed-in`: a live session of an approved affiliate of the application
   * (without one, on to `login`, with `?notice=expired` when a session cookie came).
   * `unsubscribe-token`: a player's unsubscribe link (docs/api.md, "Unsubscribe"): the
   * token in the path, signed with its application's key, names the application and the
   * player; any other string is the same 404 page.
   */
  access: 'anyone' | 'session-holder' | 'signed-in' | 'unsubscribe-token';
  /**
   * A form post's CSRF token, and the cookie it is bound to: the session's,
   * or before sign-in the pre-session cookie's (sign-in, reset). Missing or
   * wrong: the 403 page. Checked before the session is looked up.
   */
  csrf?: 'session' | 'pre-session';
}

/** Every route reads its application (an unknown one is the 404 page); a signed-in route its session and affiliate. */
const application = { apps: 'read' } as const;
const signedIn = { apps: 'read', affiliateSessions: 'readwrite', affiliates: 'read' } as const;

export const routes = [
  { id: 'AffiliateLoginPage', method: 'GET', path: '/affiliates/{app_id}/login', access: 'anyone', tables: application },
  {
    id: 'AffiliateSignIn',
    method: 'POST',
    path: '/affiliates/{app_id}/login',
    access: 'anyone',
    csrf: 'pre-session',
    maxBodyBytes: maxFormBytes,
    tables: { ...application, affiliates: 'read', affiliateSessions: 'write', signInAttempts: 'readwrite' },
  },
  {
    id: 'AffiliateSignOut',
    method: 'POST',
    path: '/affiliates/{app_id}/sign_out',
    access: 'session-holder',
    csrf: 'session',
    maxBodyBytes: maxFormBytes,
    tables: { ...application, affiliateSessions: 'write' },
  },
  { id: 'AffiliateForgotPage', method: 'GET', path: '/affiliates/{app_id}/forgot', access: 'anyone', tables: application },
  {
    id: 'AffiliateRequestReset',
    method: 'POST',
    path: '/affiliates/{app_id}/forgot',
    access: 'anyone',
    csrf: 'pre-session',
    maxBodyBytes: maxFormBytes,
    tables: { ...application, affiliates: 'read', channels: 'read', senders: 'read', resetTokens: 'write', signInAttempts: 'readwrite' },
    email: 'send',
  },
  { id: 'AffiliateResetPage', method: 'GET', path: '/affiliates/{app_id}/reset', access: 'anyone', tables: { ...application, resetTokens: 'read' } },
  {
    id: 'AffiliateResetPassword',
    method: 'POST',
    path: '/affiliates/{app_id}/reset',
    access: 'anyone',
    csrf: 'pre-session',
    maxBodyBytes: maxFormBytes,
    tables: { ...application, affiliates: 'readwrite', resetTokens: 'readwrite', affiliateSessions: 'readwrite', signInAttempts: 'write' },
    indexes: { affiliateSessions: ['by-affiliate'] },
  },
  {
    // The programme's report (back-office/affiliate-report.ts): the affiliate and its plan, the funnel, link names.
    id: 'AffiliateDashboard',
    method: 'GET',
    path: '/affiliates/{app_id}/',
    access: 'signed-in',
    tables: { ...signedIn, funnel: 'read', links: 'read' },
    indexes: { links: ['by-affiliate'] },
  },
  {
    id: 'AffiliateReportCsv',
    method: 'GET',
    path: '/affiliates/{app_id}/report.csv',
    access: 'signed-in',
    tables: { ...signedIn, funnel: 'read', links: 'read' },
    indexes: { links: ['by-affiliate'] },
  },
  {
    id: 'AffiliateLinksPage',
    method: 'GET',
    path: '/affiliates/{app_id}/links',
    access: 'signed-in',
    tables: { ...signedIn, links: 'read' },
    indexes: { links: ['by-affiliate'] },
  },
  {
    id: 'AffiliateCreateLink',
    method: 'POST',
    path: '/affiliates/{app_id}/links',
    access: 'signed-in',
    csrf: 'session',
    maxBodyBytes: maxFormBytes,
    tables: { ...signedIn, links: 'readwrite' },
    indexes: { links: ['by-affiliate'] },
  },
  {
    // The URL is on the affiliate item; the delivery log in the affiliate's funnel partition.
    id: 'AffiliatePostbacksPage',
    method: 'GET',
    path: '/affiliates/{app_id}/postbacks',
    access: 'signed-in',
    tables: { ...signedIn, funnel: 'read' },
  },
  {
    id: 'AffiliateUpdatePostbacks',
    method: 'POST',
    path: '/affiliates/{app_id}/postbacks',
    access: 'signed-in',
    csrf: 'session',
    maxBodyBytes: maxFormBytes,
    tables: { ...signedIn, affiliates: 'readwrite', funnel: 'read' },
    // The signing secret: made with the first URL (whether there is one is asked, never read), replaced on rotation; only postback secrets may be written.
    secretChecks: [postbackSecretPattern],
    secretWrites: [postbackSecretPattern],
    postbackHosts: true,
  },
  {
    // Statements are computed from the affiliate's report (funnel, link names); statements, adjustments and payout details sit beside the affiliate.
    id: 'AffiliatePaymentsPage',
    method: 'GET',
    path: '/affiliates/{app_id}/payments',
    access: 'signed-in',
    tables: { ...signedIn, funnel: 'read', links: 'read' },
    indexes: { links: ['by-affiliate'] },
  },
  {
    id: 'AffiliateUpdatePayout',
    method: 'POST',
    path: '/affiliates/{app_id}/payments',
    access: 'signed-in',
    csrf: 'session',
    maxBodyBytes: maxFormBytes,
    tables: { ...signedIn, affiliates: 'readwrite', funnel: 'read', links: 'read' },
    indexes: { links: ['by-affiliate'] },
  },
  {
    // One month's statement, printable: ?month=YYYY-MM.
    id: 'AffiliateStatementPage',
    method: 'GET',
    path: '/affiliates/{app_id}/statement',
    access: 'signed-in',
    tables: { ...signedIn, funnel: 'read', links: 'read' },
    indexes: { links: ['by-affiliate'] },
  },
  // The profile (profile.ts): the affiliate item is read and written; a change is audited.
  { id: 'AffiliateProfilePage', method: 'GET', path: '/affiliates/{app_id}/profile', access: 'signed-in', tables: signedIn },
  {
    id: 'AffiliateUpdateProfile',
    method: 'POST',
    path: '/affiliates/{app_id}/profile',
    access: 'signed-in',
    csrf: 'session',
    maxBodyBytes: maxFormBytes,
    tables: { ...signedIn, affiliates: 'readwrite', auditLog: 'write' },
  },
  {
    // The current password under the sign-in lockout; every session of the affiliate ended, one new started.
    id: 'AffiliateChangePassword',
    method: 'POST',
    path: '/affiliates/{app_id}/password',
    access: 'signed-in',
    csrf: 'session',
    maxBodyBytes: maxFormBytes,
    tables: { ...signedIn, affiliates: 'readwrite', signInAttempts: 'readwrite', auditLog: 'write' },
    indexes: { affiliateSessions: ['by-affiliate'] },
  },
  // Join the programme (join.ts): a 404 unless the application opened it; an application registers a pending affiliate.
  { id: 'AffiliateJoinPage', method: 'GET', path: '/affiliates/{app_id}/join', access: 'anyone', tables: application },
  {
    id: 'AffiliateJoin',
    method: 'POST',
    path: '/affiliates/{app_id}/join',
    access: 'anyone',
    csrf: 'pre-session',
    maxBodyBytes: maxFormBytes,
    tables: { ...application, affiliates: 'write', signInAttempts: 'readwrite' },
  },
  // A player's unsubscribe link: the token names the application, so no application in the path. Reads its key, never makes one
  // (whatever sends marketing mail does), and writes the player's choice through the stream.
  {
    id: 'UnsubscribePage',
    method: 'GET',
    path: '/unsubscribe/{token}',
    access: 'unsubscribe-token',
    tables: { ...application, profiles: 'read' },
    secretReads: [unsubscribeKeyPattern],
  },
  {
    // RFC 8058's one-click POST: no cookie, no CSRF token, any body (never read).
    id: 'UnsubscribeOneClick',
    method: 'POST',
    path: '/unsubscribe/{token}',
    access: 'unsubscribe-token',
    maxBodyBytes: maxFormBytes,
    tables: { ...application, profiles: 'read' },
    stream: 'write',
    secretReads: [unsubscribeKeyPattern],
  },
  {
    // The page's form: its form token, derived from the link's, and no cross-site post (unsubscribe.ts).
    id: 'UnsubscribePreferences',
    method: 'POST',
    path: '/unsubscribe/{token}/preferences',
    access: 'unsubscribe-token',
    maxBodyBytes: maxFormBytes,
    tables: { ...application, profiles: 'read' },
    stream: 'write',
    secretReads: [unsubscribeKeyPattern],
  },
] as const satisfies readonly PortalRouteDefinition[];

export type PortalRoute = (typeof routes)[number];
export type PortalRouteId = PortalRoute['id'];
