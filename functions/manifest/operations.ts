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
import { routes as consoleRoutes } from '../console/routes';
import { routes as enterprisePortalRoutes } from '../enterprise-portal/routes';
import { SES_EVENT_SOURCE, sesDetailTypes } from '../domain/email-events';
import { identitySecretPattern } from '../domain/identity';
import { postbackSecretPattern } from '../domain/postbacks';
import { vapidPrivateKeyPattern } from '../domain/push';
import { unsubscribeKeyPattern } from '../domain/unsubscribe-token';
import { webhookSecretPattern } from '../domain/webhooks';
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
  /**
   * `enhanced`: the consumer reads the stream through its own enhanced fan-out consumer (pushed records, its own
   * 2 MB/s per shard), not the five reads per second a shard shares among its polling consumers. Past four polling
   * consumers those reads are the limit (docs/performance.md, "Capacity"), and a journey's welcome mail must not
   * wait for them.
   */
  fanOut?: 'enhanced';
}

/**
 * Whether an operation's caller proves itself with an x-api-key (functions/http/auth.ts): it reads the keys
 * table to do so. (The console reads and writes keys too, in its Settings, but it is a routed function,
 * authorised by the portal session: functions/http/console-auth.ts.)
 */
export function keyAuthenticated(operation: HttpOperation): boolean {
  return operation.tables.keys !== undefined;
}

export const httpOperations: HttpOperation[] = [
  {
    id: 'IngestProfiles',
    method: 'POST',
    path: '/profiles',
    entry: 'functions/api/ingest-profiles/handler.ts',
    tables: { keys: 'read', apps: 'read' },
    stream: 'write',
    // Identity secrets only (proofs of browser-key writes to known profiles): the browser key reaches this function.
    secretReads: [identitySecretPattern],
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
    // affiliates: read the default plan's version (a new affiliate's first deal), write the affiliate.
    tables: { keys: 'read', apps: 'read', affiliates: 'readwrite' },
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
    id: 'ListSegments',
    method: 'GET',
    path: '/api/segments',
    entry: 'functions/api/list-segments/handler.ts',
    // The definitions and their size shards, in the application's partition.
    tables: { keys: 'read', segments: 'read' },
  },
  {
    id: 'ListSegmentMembers',
    method: 'GET',
    path: '/api/segments/{segment_id}/members',
    entry: 'functions/api/list-segment-members/handler.ts',
    tables: { keys: 'read', segments: 'read' },
  },
  {
    // Enters a player into an API-triggered journey: reads the journey's head and version, writes the trigger event.
    id: 'TriggerJourney',
    method: 'POST',
    path: '/api/journeys/{journey_id}/trigger',
    entry: 'functions/api/trigger-journey/handler.ts',
    tables: { keys: 'read', campaigns: 'read' },
    stream: 'write',
  },
  {
    id: 'SendEmail',
    method: 'POST',
    path: '/api/send_email',
    entry: 'functions/api/send-email/handler.ts',
    // senders: that the application still holds the channel's sender, at every send. With a `purpose`, the send gate:
    // the settings, the player, the caps and deferred outbox (sendGate), the message-id claims (pushDeliveries: put and delete).
    tables: { keys: 'read', channels: 'read', senders: 'read', apps: 'read', profiles: 'read', sendGate: 'readwrite', pushDeliveries: 'write' },
    stream: 'write',
    email: 'send',
    // A marketing mail's unsubscribe address is signed with the application's key, made once if an older application has none.
    secretReads: [unsubscribeKeyPattern],
    secretWrites: [unsubscribeKeyPattern],
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
  {
    // Public, no key: the link id is all a click carries. The hottest public address, so links and
    // affiliates come from a per-container cache: a new click costs two conditional writes (the visitor's
    // claim, the address's count) and one record. It reads click claims only for the visitor-cookie key
    // kept there, once per container.
    id: 'TrackClick',
    method: 'GET',
    path: '/t/{link_id}',
    entry: 'functions/api/track-click/handler.ts',
    tables: { links: 'read', affiliates: 'read', clickClaims: 'readwrite' },
    stream: 'write',
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
    // With a `purpose`, the send gate: the caps and deferred outbox (sendGate), the message-id claims (pushDeliveries: put and delete).
    tables: { keys: 'read', apps: 'read', profiles: 'read', pushDeliveries: 'write', sendGate: 'readwrite' },
    stream: 'write',
    // The application's VAPID private key.
    secretReads: [vapidPrivateKeyPattern],
    pushEndpoints: true,
  },
  {
    id: 'SendTemplate',
    method: 'POST',
    path: '/api/send_template',
    entry: 'functions/api/send-template/handler.ts',
    // The template (campaigns), then the send gate as SendEmail and SendPush have it: channels and senders for an email
    // template, the caps and deferred outbox (sendGate), the message-id claims (pushDeliveries: put and delete).
    tables: {
      keys: 'read',
      campaigns: 'read',
      apps: 'read',
      profiles: 'read',
      channels: 'read',
      senders: 'read',
      sendGate: 'readwrite',
      pushDeliveries: 'write',
    },
    stream: 'write',
    email: 'send',
    pushEndpoints: true,
    // A webhook template's POST goes where postbacks may (allowed hosts), signed with the application's webhook secret.
    postbackHosts: true,
    secretReads: [unsubscribeKeyPattern, vapidPrivateKeyPattern, webhookSecretPattern],
    secretWrites: [unsubscribeKeyPattern],
  },
];

/** The browser UIs: one routed function each. */
export const routedFunctions: RoutedFunction[] = [
  // GET /redirect (the one-time sign-in link into the console) and GET /portal (kept for old links: to the console);
  // what was under /portal (its sign-out) gets the router's 404.
  routedFunction({ id: 'EnterprisePortal', entry: 'functions/enterprise-portal/handler.ts', proxies: ['/portal/{proxy+}'], routes: enterprisePortalRoutes }),
  // The back-office console's API (docs/api.md, "Back office API"): JSON for the console in a person's browser, authorised
  // by the portal session cookie and the user's role (functions/http/console-auth.ts), not an integrator API.
  routedFunction({ id: 'Console', entry: 'functions/console/handler.ts', proxies: ['/console/api/{proxy+}'], routes: consoleRoutes }),
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

/**
 * What a function that sends templates needs (functions/adapters/senders.ts): the templates (campaigns), the player
 * and the application, the channels and senders, the send gate's tables (caps, deferred outbox) and message-id
 * claims (pushDeliveries: put and delete), its keys (VAPID, unsubscribe, webhook signing), the stream for the
 * sent and suppressed events, SES, the push services and the postbacks' hosts for webhooks.
 */
const templateSenderGrants = {
  tables: {
    campaigns: 'read',
    apps: 'read',
    profiles: 'read',
    channels: 'read',
    senders: 'read',
    sendGate: 'readwrite',
    pushDeliveries: 'write',
  },
  stream: 'write',
  email: 'send',
  secretReads: [vapidPrivateKeyPattern, unsubscribeKeyPattern, webhookSecretPattern],
  secretWrites: [unsubscribeKeyPattern],
  pushEndpoints: true,
  postbackHosts: true,
} as const satisfies Partial<FunctionDefinition>;

/**
 * What the journey runner needs (functions/domain/journeys/runner.ts), in the consumer and the timer alike: a
 * template sender's grants, and campaigns read and written (journeys, instances), timeline and segments for a
 * branch's facts.
 */
const journeyRunnerGrants = {
  ...templateSenderGrants,
  tables: { ...templateSenderGrants.tables, campaigns: 'readwrite', timeline: 'read', segments: 'read' },
} as const satisfies Partial<FunctionDefinition>;

export const streamConsumers: StreamConsumer[] = [
  {
    id: 'ApplyProfiles',
    entry: 'functions/consumers/apply-profiles/handler.ts',
    // apps: each application's searchable attributes; playerSearch: a player's changed search terms;
    // figures: the players counter and registrations by day, moved in the transaction of a profile's creation or delete.
    tables: { profiles: 'readwrite', timeline: 'readwrite', rejections: 'write', apps: 'read', playerSearch: 'write', figures: 'write' },
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
    // The affiliate funnel: clicks, registrations, first deposits and money per affiliate, link and day. affiliates read:
    // which postback events an affiliate receives (a CPA or deposit row only for one that does).
    id: 'CountFunnel',
    entry: 'functions/consumers/count-funnel/handler.ts',
    tables: { funnel: 'readwrite', apps: 'read', affiliates: 'read', rejections: 'write' },
    kinds: ['event', 'click'],
    batchSize: 100,
    retryAttempts: 10,
    maxRecordAgeSeconds: 6 * 24 * 60 * 60,
  },
  {
    // Segment membership in real time (functions/domain/segments/keeper.ts): profiles and timeline read for the player's
    // attributes and the figures a new segment needs from history; apps for the money settings; the stream for the
    // entered/exited events; rejections only for undecodable records.
    id: 'KeepSegments',
    entry: 'functions/consumers/keep-segments/handler.ts',
    tables: { segments: 'readwrite', profiles: 'read', timeline: 'read', apps: 'read', rejections: 'write' },
    stream: 'write',
    kinds: ['profile', 'event'],
    batchSize: 100,
    retryAttempts: 10,
    maxRecordAgeSeconds: 6 * 24 * 60 * 60,
  },
  {
    // Campaign results (functions/domain/campaign-results.ts): per campaign, step and day, and money against the holdout
    // in the campaigns table (`res#`, `rcv#`); apps for the money settings; rejections only for undecodable records.
    id: 'CountCampaigns',
    entry: 'functions/consumers/count-campaigns/handler.ts',
    tables: { campaigns: 'readwrite', apps: 'read', rejections: 'write' },
    kinds: ['event'],
    batchSize: 100,
    retryAttempts: 10,
    maxRecordAgeSeconds: 6 * 24 * 60 * 60,
  },
  {
    // Journeys (functions/consumers/run-journeys/core.ts): entries and the moves events make. campaigns for journeys,
    // instances and templates; funnel for the ledger's first deposit; profiles, timeline and segments for a branch's
    // facts; the send gate's tables, channels and senders for the template sender; the stream for lifecycle events.
    id: 'RunJourneys',
    entry: 'functions/consumers/run-journeys/handler.ts',
    fanOut: 'enhanced',
    ...journeyRunnerGrants,
    tables: { ...journeyRunnerGrants.tables, funnel: 'read', rejections: 'write' },
    kinds: ['event'],
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
    // Affiliate postbacks: the outbox (funnel `postbacks-due`), the URL and events on the affiliate, its plan (a CPA's payout), its signing secret.
    id: 'SendPostbacks',
    entry: 'functions/scheduled/send-postbacks/handler.ts',
    tables: { funnel: 'readwrite', affiliates: 'read', apps: 'read' },
    indexes: { funnel: ['postbacks-due'] },
    secretReads: [postbackSecretPattern],
    postbackHosts: true,
    everyMinutes: 1,
    // Pages start only with 55 s left (functions/scheduled/send-postbacks/core.ts); runs that overlap never take the same row.
    timeoutSeconds: 120,
  },
  {
    // Segments whose membership time alone changes (the `due` index), outboxes a crash left, and backfills (the
    // players of an application through the profiles' `by-app` index).
    id: 'SegmentTimers',
    entry: 'functions/scheduled/segment-timers/handler.ts',
    tables: { segments: 'readwrite', profiles: 'read', timeline: 'read', apps: 'read' },
    indexes: { segments: ['due'], profiles: ['by-app'] },
    stream: 'write',
    everyMinutes: 1,
    // Work starts only with 20 s left (functions/scheduled/segment-timers/core.ts).
    timeoutSeconds: 60,
  },
  {
    // Messages the send gate deferred for quiet hours (the send-gate table's `due` index), sent through the gate again:
    // the application's settings, the player, the caps, the message-id claims beside the push claims, the mail and push.
    id: 'SendDeferred',
    entry: 'functions/scheduled/send-deferred/handler.ts',
    tables: { sendGate: 'readwrite', apps: 'read', profiles: 'read', channels: 'read', senders: 'read', pushDeliveries: 'write' },
    indexes: { sendGate: ['due'] },
    stream: 'write',
    email: 'send',
    secretReads: [vapidPrivateKeyPattern, unsubscribeKeyPattern],
    secretWrites: [unsubscribeKeyPattern],
    pushEndpoints: true,
    everyMinutes: 1,
    // Work starts only with 15 s left (functions/scheduled/send-deferred/core.ts).
    timeoutSeconds: 60,
  },
  {
    // Journey timers (the campaigns table's `due` index): the instances whose wait ended, moved as the consumer moves
    // them, so the same grants but the ledger and rejections.
    id: 'JourneyTimers',
    entry: 'functions/scheduled/journey-timers/handler.ts',
    ...journeyRunnerGrants,
    indexes: { campaigns: ['due'] },
    everyMinutes: 1,
    // Work starts only with 15 s left (functions/scheduled/journey-timers/core.ts).
    timeoutSeconds: 60,
  },
  {
    // Broadcasts (functions/scheduled/send-broadcasts/core.ts): the broadcasts and their recipients, and the templates
    // (campaigns, its `due` index: never a scan), the segment's members (segments), the players' time zones and the
    // gate's reads and claims as SendDeferred's, the holdout and suppression events (stream).
    id: 'SendBroadcasts',
    entry: 'functions/scheduled/send-broadcasts/handler.ts',
    ...templateSenderGrants,
    tables: { ...templateSenderGrants.tables, campaigns: 'readwrite', segments: 'read' },
    indexes: { campaigns: ['due'] },
    everyMinutes: 1,
    // Sends in one-second ticks until 15 s are left: 55 s of each minute, so runs do not overlap (they may, safely).
    timeoutSeconds: 70,
  },
];

/**
 * A function EventBridge invokes with events AWS puts on the account's default
 * bus (an EventBridge rule in AWS; locally, the emulator that stands for the
 * AWS service invokes it: lib/local/aws-events.ts).
 */
export interface EventFunction extends FunctionDefinition {
  /** The rule's pattern: the events' source and detail-types. */
  source: string;
  detailTypes: readonly string[];
  /** Only the events of mail sent through the stack's SES configuration set (`detail.mail.tags.ses:configuration-set`). */
  sesConfigurationSet?: true;
  /** Its Lambda timeout. */
  timeoutSeconds: number;
}

export const eventFunctions: EventFunction[] = [
  {
    // SES's bounces, complaints and deliveries of urm's mail (the configuration set's event destination): the
    // suppression and the timeline events, through the stream; it reads nothing.
    id: 'EmailEvents',
    entry: 'functions/consumers/email-events/handler.ts',
    tables: {},
    stream: 'write',
    source: SES_EVENT_SOURCE,
    detailTypes: Object.values(sesDetailTypes),
    sesConfigurationSet: true,
    timeoutSeconds: 30,
  },
];
