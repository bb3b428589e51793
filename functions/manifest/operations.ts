/**
 * What the service is made of, as pure data: every HTTP operation, the
 * browser UIs' routed functions, the stream consumers and the scheduled work.
 * The CDK stack builds one Lambda function per entry, granting exactly the
 * access listed here (a routed function: the union of its routes' grants);
 * the local stack routes to the same handler modules. Each integrator
 * operation's request-body bound is in body-limits.ts, which the functions
 * import without this whole table; a route declares its own.
 */
import { routes as affiliatePortalRoutes } from '../affiliate-portal/routes';
import { routes as enterprisePortalRoutes } from '../enterprise-portal/routes';
import { identitySecretPattern } from '../domain/identity';
import { postbackSecretPattern } from '../domain/postbacks';
import { vapidPrivateKeyPattern } from '../domain/push';
import type { StreamRecordKind } from '../domain/stream-record';
import { routedFunction, type FunctionDefinition, type RoutedFunction } from './routes';

export type { Access, FunctionDefinition, Grants, RoutedFunction, RouteDefinition } from './routes';

export interface HttpOperation extends FunctionDefinition {
  method: 'GET' | 'POST';
  /** API path; `{name}` marks a path parameter. */
  path: string;
  /**
   * Callable by the browser push SDK with a browser key: the function also
   * answers the CORS preflight (OPTIONS) of its path (functions/http/cors.ts).
   */
  browser?: true;
  /**
   * For a person's browser, not an integrator API: a page of the affiliate portal (HTML), or an operation of the
   * back-office console's API. Left out of the OpenAPI reference; docs/api.md ("The affiliate portal", "Back office
   * API") describes them.
   */
  portalPage?: true;
}

/**
 * How long an HTTP operation's function may run (its Lambda timeout, below
 * API Gateway's 29 s): what `context.getRemainingTimeInMillis()` counts down
 * from, in AWS and in the local stack.
 */
export const httpFunctionTimeoutSeconds = 10;

export interface StreamConsumer extends FunctionDefinition {
  /** Only stream records of these kinds reach the consumer (an event-source filter). */
  kinds: StreamRecordKind[];
  batchSize: number;
  /** Attempts after the first before a batch goes to the on-failure destination. */
  retryAttempts: number;
  /**
   * Records older than this are sent to the on-failure destination unprocessed. At least a day less than the
   * stream's retentionDays (resources.ts): what the destination lists must still be on the stream to be replayed.
   */
  maxRecordAgeSeconds: number;
}

/**
 * Whether an operation's caller proves itself with an x-api-key (functions/http/auth.ts): it reads the keys
 * table to do so. The console's operations may read or write keys (its Settings) but are authorised by the portal
 * session (`/console/api/…`, console-auth.ts), never by a key.
 */
export function keyAuthenticated(operation: HttpOperation): boolean {
  return operation.tables.keys !== undefined && !operation.path.startsWith('/console/api/');
}

/** What every console operation's authorisation touches (functions/http/console-auth.ts): spread into its `tables`. */
export const consoleAuthTables = { portalSessions: 'readwrite', enterpriseUsers: 'read' } as const satisfies FunctionDefinition['tables'];

export const httpOperations: HttpOperation[] = [
  {
    id: 'IngestProfiles',
    method: 'POST',
    path: '/profiles',
    entry: 'functions/api/ingest-profiles/handler.ts',
    tables: { keys: 'read', apps: 'read' },
    stream: 'write',
    // The applications' identity secrets (browser-key writes to known profiles).
    secrets: 'read',
    pushEndpoints: true,
    browser: true,
  },
  {
    id: 'IngestEvents',
    method: 'POST',
    path: '/events',
    entry: 'functions/api/ingest-events/handler.ts',
    tables: { keys: 'read', apps: 'read' },
    stream: 'write',
    browser: true,
  },
  {
    id: 'GetProfile',
    method: 'GET',
    path: '/profiles/{profile_id}',
    entry: 'functions/api/get-profile/handler.ts',
    tables: { keys: 'read', profiles: 'read' },
  },
  {
    id: 'ListProfileEvents',
    method: 'GET',
    path: '/profiles/{profile_id}/events',
    entry: 'functions/api/list-profile-events/handler.ts',
    // profiles: the delete mark, to leave out what a delete still under way covers.
    tables: { keys: 'read', timeline: 'read', profiles: 'read' },
  },
  {
    id: 'SetAffiliate',
    method: 'POST',
    path: '/api/set_affiliate',
    entry: 'functions/api/set-affiliate/handler.ts',
    tables: { keys: 'read' },
    stream: 'write',
  },
  {
    id: 'RegisterAffiliate',
    method: 'POST',
    path: '/api/register_affiliate',
    entry: 'functions/api/register-affiliate/handler.ts',
    tables: { keys: 'read', apps: 'read', affiliates: 'write' },
  },
  {
    id: 'ListAffiliates',
    method: 'GET',
    path: '/api/affiliates',
    entry: 'functions/api/list-affiliates/handler.ts',
    tables: { keys: 'read', affiliates: 'read' },
  },
  {
    id: 'GetAffiliateReport',
    method: 'GET',
    path: '/api/affiliates/{affiliate_id}/report',
    entry: 'functions/api/get-affiliate-report/handler.ts',
    // The affiliate and its plan (affiliates), the currency (apps), the figures (funnel), link names (links, by affiliate).
    tables: { keys: 'read', apps: 'read', affiliates: 'read', funnel: 'read', links: 'read' },
    indexes: { links: ['by-affiliate'] },
  },
  {
    id: 'SendEmail',
    method: 'POST',
    path: '/api/send_email',
    entry: 'functions/api/send-email/handler.ts',
    tables: { keys: 'read', channels: 'read' },
    stream: 'write',
    email: 'send',
  },
  {
    id: 'EnterpriseSignUp',
    method: 'POST',
    path: '/enterprises/sign_up',
    entry: 'functions/api/enterprise-sign-up/handler.ts',
    tables: { keys: 'read', enterpriseUsers: 'readwrite' },
    // Whether the application has a user yet: its first is admin.
    indexes: { enterpriseUsers: ['by-app'] },
  },
  {
    id: 'EnterpriseSignIn',
    method: 'POST',
    path: '/enterprises/sign_in',
    entry: 'functions/api/enterprise-sign-in/handler.ts',
    tables: { keys: 'read', apps: 'read', enterpriseUsers: 'read', signInTokens: 'write' },
  },
  // The back-office console's API (docs/api.md, "Back office API"): JSON for the console in a person's browser, not an
  // integrator API, so out of the OpenAPI reference (portalPage). Every one authorises with the portal session cookie and the
  // user's role (functions/http/console-auth.ts): it reads the session and moves its last_seen, and reads the user.
  // Settings (admin only; channels are read by marketers too, who send email): the same use cases as the admin command
  // line (functions/back-office/), each state-changing one audited.
  {
    id: 'ConsoleListKeys',
    portalPage: true,
    method: 'GET',
    path: '/console/api/keys',
    entry: 'functions/console/console-list-keys/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read', keys: 'read' },
    indexes: { keys: ['by-app'] },
  },
  {
    id: 'ConsoleIssueKey',
    portalPage: true,
    method: 'POST',
    path: '/console/api/keys',
    entry: 'functions/console/console-issue-key/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read', keys: 'write', auditLog: 'write' },
  },
  {
    id: 'ConsoleRevokeKey',
    portalPage: true,
    method: 'POST',
    path: '/console/api/keys/{key_id}/revoke',
    entry: 'functions/console/console-revoke-key/handler.ts',
    // keys: the application's key by id through by-app, then its revoked_at.
    tables: { ...consoleAuthTables, apps: 'read', keys: 'readwrite', auditLog: 'write' },
    indexes: { keys: ['by-app'] },
  },
  {
    id: 'ConsoleGetApp',
    portalPage: true,
    method: 'GET',
    path: '/console/api/app',
    entry: 'functions/console/console-get-app/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read' },
    // Whether the application has an identity secret (never what it is).
    secrets: 'read',
  },
  {
    id: 'ConsoleUpdateApp',
    portalPage: true,
    method: 'POST',
    path: '/console/api/app',
    entry: 'functions/console/console-update-app/handler.ts',
    // affiliates: that a default plan is one of the application's plans.
    tables: { ...consoleAuthTables, apps: 'readwrite', affiliates: 'read', auditLog: 'write' },
  },
  {
    id: 'ConsoleListChannels',
    portalPage: true,
    method: 'GET',
    path: '/console/api/channels',
    entry: 'functions/console/console-list-channels/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read', channels: 'read' },
  },
  {
    id: 'ConsoleCreateChannel',
    portalPage: true,
    method: 'POST',
    path: '/console/api/channels',
    entry: 'functions/console/console-create-channel/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read', channels: 'write', auditLog: 'write' },
  },
  {
    id: 'ConsoleUpdateChannel',
    portalPage: true,
    method: 'POST',
    path: '/console/api/channels/{channel_id}',
    entry: 'functions/console/console-update-channel/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read', channels: 'readwrite', auditLog: 'write' },
  },
  {
    id: 'ConsoleGetVapid',
    portalPage: true,
    method: 'GET',
    path: '/console/api/vapid',
    entry: 'functions/console/console-get-vapid/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read' },
  },
  {
    id: 'ConsoleGenerateVapid',
    portalPage: true,
    method: 'POST',
    path: '/console/api/vapid',
    entry: 'functions/console/console-generate-vapid/handler.ts',
    tables: { ...consoleAuthTables, apps: 'readwrite', auditLog: 'write' },
    // The private key: written, never read back here.
    secretWrites: [vapidPrivateKeyPattern],
  },
  {
    id: 'ConsoleRotateIdentitySecret',
    portalPage: true,
    method: 'POST',
    path: '/console/api/identity_secret',
    entry: 'functions/console/console-rotate-identity-secret/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read', auditLog: 'write' },
    secretWrites: [identitySecretPattern],
  },
  {
    id: 'ConsoleGetMoney',
    portalPage: true,
    method: 'GET',
    path: '/console/api/money',
    entry: 'functions/console/console-get-money/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read' },
  },
  {
    id: 'ConsoleSetMoney',
    portalPage: true,
    method: 'POST',
    path: '/console/api/money',
    entry: 'functions/console/console-set-money/handler.ts',
    tables: { ...consoleAuthTables, apps: 'readwrite', auditLog: 'write' },
  },
  {
    id: 'ConsoleSession',
    portalPage: true,
    method: 'GET',
    path: '/console/api/session',
    entry: 'functions/console/console-session/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read' },
  },
  {
    id: 'ConsoleSignOut',
    portalPage: true,
    method: 'POST',
    path: '/console/api/sign_out',
    entry: 'functions/console/console-sign-out/handler.ts',
    tables: { ...consoleAuthTables },
  },
  {
    id: 'ConsoleListUsers',
    portalPage: true,
    method: 'GET',
    path: '/console/api/users',
    entry: 'functions/console/console-list-users/handler.ts',
    tables: { ...consoleAuthTables },
    indexes: { enterpriseUsers: ['by-app'] },
  },
  {
    id: 'ConsoleChangeRole',
    portalPage: true,
    method: 'POST',
    path: '/console/api/users/{user_id}/role',
    entry: 'functions/console/console-change-role/handler.ts',
    tables: { ...consoleAuthTables, enterpriseUsers: 'readwrite', auditLog: 'write' },
  },
  {
    id: 'ConsoleAudit',
    portalPage: true,
    method: 'GET',
    path: '/console/api/audit',
    entry: 'functions/console/console-audit/handler.ts',
    tables: { ...consoleAuthTables, auditLog: 'read' },
  },
  {
    id: 'ConsoleListRejections',
    portalPage: true,
    method: 'GET',
    path: '/console/api/rejections',
    entry: 'functions/console/console-list-rejections/handler.ts',
    tables: { ...consoleAuthTables, rejections: 'read' },
  },
  // Affiliates in the console: the use cases of GET /api/affiliates, its report and the admin command line (back-office/affiliates.ts,
  // plans.ts, affiliate-report.ts). Plans and postback URLs live in the affiliates table.
  {
    id: 'ConsoleListAffiliates',
    portalPage: true,
    method: 'GET',
    path: '/console/api/affiliates',
    entry: 'functions/console/console-list-affiliates/handler.ts',
    tables: { ...consoleAuthTables, affiliates: 'read' },
  },
  {
    id: 'ConsoleGetAffiliate',
    portalPage: true,
    method: 'GET',
    path: '/console/api/affiliates/{affiliate_id}',
    entry: 'functions/console/console-get-affiliate/handler.ts',
    tables: { ...consoleAuthTables, affiliates: 'read', links: 'read' },
    indexes: { links: ['by-affiliate'] },
  },
  {
    id: 'ConsoleSetAffiliateStatus',
    portalPage: true,
    method: 'POST',
    path: '/console/api/affiliates/{affiliate_id}/status',
    entry: 'functions/console/console-set-affiliate-status/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read', affiliates: 'readwrite', auditLog: 'write' },
  },
  {
    id: 'ConsoleAssignAffiliatePlan',
    portalPage: true,
    method: 'POST',
    path: '/console/api/affiliates/{affiliate_id}/plan',
    entry: 'functions/console/console-assign-affiliate-plan/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read', affiliates: 'readwrite', auditLog: 'write' },
  },
  {
    id: 'ConsoleListPlans',
    portalPage: true,
    method: 'GET',
    path: '/console/api/plans',
    entry: 'functions/console/console-list-plans/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read', affiliates: 'read' },
  },
  {
    id: 'ConsoleAffiliateReport',
    portalPage: true,
    method: 'GET',
    path: '/console/api/affiliates/{affiliate_id}/report',
    entry: 'functions/console/console-affiliate-report/handler.ts',
    // As GetAffiliateReport: the affiliate and its plan, the currency, the figures, link names.
    tables: { ...consoleAuthTables, apps: 'read', affiliates: 'read', funnel: 'read', links: 'read' },
    indexes: { links: ['by-affiliate'] },
  },
  {
    id: 'ConsoleAffiliateReportCsv',
    portalPage: true,
    method: 'GET',
    path: '/console/api/affiliates/{affiliate_id}/report.csv',
    entry: 'functions/console/console-affiliate-report-csv/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read', affiliates: 'read', funnel: 'read', links: 'read' },
    indexes: { links: ['by-affiliate'] },
  },
  {
    id: 'ConsoleAffiliateTrace',
    portalPage: true,
    method: 'GET',
    path: '/console/api/affiliates/{affiliate_id}/trace',
    entry: 'functions/console/console-affiliate-trace/handler.ts',
    // The attributed players (funnel) and their money events (timeline, newest first by its page keys).
    tables: { ...consoleAuthTables, apps: 'read', affiliates: 'read', funnel: 'read', timeline: 'read' },
  },
  {
    id: 'ConsoleCreatePlan',
    portalPage: true,
    method: 'POST',
    path: '/console/api/plans',
    entry: 'functions/console/console-create-plan/handler.ts',
    // Plans live in the affiliates table (a new item, never an update).
    tables: { ...consoleAuthTables, apps: 'read', affiliates: 'write', auditLog: 'write' },
  },
  {
    id: 'ConsoleCreateAffiliateLink',
    portalPage: true,
    method: 'POST',
    path: '/console/api/affiliates/{affiliate_id}/links',
    entry: 'functions/console/console-create-affiliate-link/handler.ts',
    // apps: the site origins a landing URL must be on; affiliates: that the affiliate is the application's.
    tables: { ...consoleAuthTables, apps: 'read', affiliates: 'read', links: 'write', auditLog: 'write' },
  },
  {
    id: 'ConsoleAffiliatePostbacks',
    portalPage: true,
    method: 'GET',
    path: '/console/api/affiliates/{affiliate_id}/postbacks',
    entry: 'functions/console/console-affiliate-postbacks/handler.ts',
    // Whether a URL is set (affiliates), and the delivery log in the affiliate's funnel partition.
    tables: { ...consoleAuthTables, apps: 'read', affiliates: 'read', funnel: 'read' },
  },
  {
    id: 'ConsoleUpdateAffiliatePostbacks',
    portalPage: true,
    method: 'POST',
    path: '/console/api/affiliates/{affiliate_id}/postbacks',
    entry: 'functions/console/console-update-affiliate-postbacks/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read', affiliates: 'readwrite', auditLog: 'write' },
    // As AffiliateUpdatePostbacks: whether a signing secret exists, a new one made; only postback secrets may be written.
    secrets: 'read',
    secretWrites: [postbackSecretPattern],
    postbackHosts: true,
  },
  {
    // Public, no key: the link id is all a click carries. The hottest public address, so links and
    // affiliates come from a per-container cache: a new click costs one conditional put and one record.
    id: 'TrackClick',
    method: 'GET',
    path: '/t/{link_id}',
    entry: 'functions/api/track-click/handler.ts',
    tables: { links: 'read', affiliates: 'read', clickClaims: 'write' },
    stream: 'write',
  },
  {
    id: 'ConsoleListPlayers',
    portalPage: true,
    method: 'GET',
    path: '/console/api/players',
    entry: 'functions/console/console-list-players/handler.ts',
    // profiles: whether each listed player still exists, and when it last changed.
    tables: { ...consoleAuthTables, profiles: 'read' },
    indexes: { profiles: ['by-app'] },
  },
  {
    id: 'ConsoleGetPlayer',
    portalPage: true,
    method: 'GET',
    path: '/console/api/players/{profile_id}',
    entry: 'functions/console/console-get-player/handler.ts',
    tables: { ...consoleAuthTables, profiles: 'read', rejections: 'read' },
  },
  {
    id: 'ConsolePlayerTimeline',
    portalPage: true,
    method: 'GET',
    path: '/console/api/players/{profile_id}/timeline',
    entry: 'functions/console/console-player-timeline/handler.ts',
    tables: { ...consoleAuthTables, profiles: 'read', timeline: 'read' },
  },
  {
    id: 'ConsoleChangePlayerAttribute',
    portalPage: true,
    method: 'POST',
    path: '/console/api/players/{profile_id}/attributes',
    entry: 'functions/console/console-change-player-attribute/handler.ts',
    // profiles: only that the player exists; the change itself goes through the stream, and into the audit log.
    tables: { ...consoleAuthTables, profiles: 'read', auditLog: 'write' },
    stream: 'write',
  },
  {
    id: 'ConsoleEmailPlayer',
    portalPage: true,
    method: 'POST',
    path: '/console/api/players/{profile_id}/email',
    entry: 'functions/console/console-email-player/handler.ts',
    // pushDeliveries: the action ids (claimed before sending, so a retry sends once) live beside the push claims.
    tables: { ...consoleAuthTables, profiles: 'read', channels: 'read', pushDeliveries: 'readwrite', auditLog: 'write' },
    stream: 'write',
    email: 'send',
  },
  {
    id: 'ConsolePushPlayer',
    portalPage: true,
    method: 'POST',
    path: '/console/api/players/{profile_id}/push',
    entry: 'functions/console/console-push-player/handler.ts',
    tables: { ...consoleAuthTables, apps: 'read', profiles: 'read', pushDeliveries: 'readwrite', auditLog: 'write' },
    stream: 'write',
    secrets: 'read',
    pushEndpoints: true,
  },
  {
    id: 'GetPushConfig',
    method: 'GET',
    path: '/push/config',
    entry: 'functions/api/get-push-config/handler.ts',
    tables: { keys: 'read', apps: 'read' },
    browser: true,
  },
  {
    id: 'SendPush',
    method: 'POST',
    path: '/api/send_push',
    entry: 'functions/api/send-push/handler.ts',
    tables: { keys: 'read', apps: 'read', profiles: 'read', pushDeliveries: 'write' },
    stream: 'write',
    secrets: 'read',
    pushEndpoints: true,
  },
];

/** The browser UIs: one routed function each. */
export const routedFunctions: RoutedFunction[] = [
  // GET /redirect (the one-time sign-in link into the console) and GET /portal (kept for old links: to the console);
  // what was under /portal (its sign-out) gets the router's 404.
  routedFunction({ id: 'EnterprisePortal', entry: 'functions/enterprise-portal/handler.ts', proxies: ['/portal/{proxy+}'], routes: enterprisePortalRoutes }),
  // The affiliate portal (docs/api.md, "The affiliate portal"): browser-facing, no API key; a session cookie or a form's CSRF token.
  routedFunction({
    id: 'AffiliatePortal',
    entry: 'functions/affiliate-portal/handler.ts',
    proxies: ['/affiliates/{app_id}/{proxy+}'],
    routes: affiliatePortalRoutes,
  }),
];

/** An HTTP address of the service and the function that answers it: an integrator operation, or a route of a routed function. */
export interface HttpRoute {
  id: string;
  method: 'GET' | 'POST';
  path: string;
  /** The id of the function that answers it. */
  functionId: string;
  /** For a person's browser (a UI's route, or a portal page): left out of the OpenAPI reference. */
  portalPage: boolean;
  /** Its request-body bound, if it declares one (body-limits.ts for an operation, the route's own otherwise). */
  maxBodyBytes?: number;
  browser?: true;
}

/** Every HTTP address the service answers, operations first. */
export function httpRoutes(): HttpRoute[] {
  return [
    ...httpOperations.map((operation) => ({
      id: operation.id,
      method: operation.method,
      path: operation.path,
      functionId: operation.id,
      portalPage: operation.portalPage === true,
      ...(operation.browser ? { browser: true as const } : {}),
    })),
    ...routedFunctions.flatMap((fn) =>
      fn.routes.map((route) => ({
        id: route.id,
        method: route.method,
        path: route.path,
        functionId: fn.id,
        portalPage: route.documented !== true,
        ...(route.maxBodyBytes !== undefined ? { maxBodyBytes: route.maxBodyBytes } : {}),
      })),
    ),
  ];
}

export const streamConsumers: StreamConsumer[] = [
  {
    id: 'ApplyProfiles',
    entry: 'functions/consumers/apply-profiles/handler.ts',
    tables: { profiles: 'readwrite', timeline: 'readwrite', rejections: 'write' },
    // Continuation records: a delete's or merge's timeline work that does not fit one invocation.
    stream: 'write',
    kinds: ['profile'],
    batchSize: 100,
    retryAttempts: 10,
    maxRecordAgeSeconds: 6 * 24 * 60 * 60,
  },
  {
    id: 'RecordEvents',
    entry: 'functions/consumers/record-events/handler.ts',
    // timeline read: a batch's events are looked up among the pages around their time before they are packed.
    tables: { profiles: 'read', timeline: 'readwrite', rejections: 'write' },
    kinds: ['event'],
    batchSize: 100,
    retryAttempts: 10,
    maxRecordAgeSeconds: 6 * 24 * 60 * 60,
  },
  {
    // The affiliate funnel: clicks, registrations, first deposits and money per affiliate, link and day.
    id: 'CountFunnel',
    entry: 'functions/consumers/count-funnel/handler.ts',
    tables: { funnel: 'readwrite', apps: 'read', rejections: 'write' },
    kinds: ['event', 'click'],
    batchSize: 100,
    retryAttempts: 10,
    maxRecordAgeSeconds: 6 * 24 * 60 * 60,
  },
];

/** A function run on a schedule rather than by a request or the stream. */
export interface ScheduledFunction extends FunctionDefinition {
  /** Runs every this many minutes: an EventBridge rule in AWS, a timer in the local stack (faster there). */
  everyMinutes: number;
  /** Its Lambda timeout. */
  timeoutSeconds: number;
}

export const scheduledFunctions: ScheduledFunction[] = [
  {
    // Affiliate postbacks: the outbox of registration and FTD rows (funnel `postbacks-due`), the URL on the affiliate, its signing secret.
    id: 'SendPostbacks',
    entry: 'functions/scheduled/send-postbacks/handler.ts',
    tables: { funnel: 'readwrite', affiliates: 'read', apps: 'read' },
    indexes: { funnel: ['postbacks-due'] },
    secrets: 'read',
    postbackHosts: true,
    everyMinutes: 1,
    // Pages start only with 55 s left (functions/scheduled/send-postbacks/core.ts); runs that overlap never take the same row.
    timeoutSeconds: 120,
  },
];
