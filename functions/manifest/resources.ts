/**
 * Tables, indexes and the stream: the one definition that both the CDK stack
 * (lib/aws/constructs/data-tables.ts) and the local stack (lib/local/bootstrap.ts)
 * create from, so the two cannot drift.
 */

export interface KeyDefinition {
  name: string;
  type: 'S' | 'N' | 'B';
}

export interface IndexDefinition {
  name: string;
  /** A global index has its own partition key; a local one shares the table's. */
  kind: 'global' | 'local';
  partitionKey?: KeyDefinition;
  sortKey: KeyDefinition;
  /** What the index copies of each item: all of it (the default), or only the keys. */
  projection?: 'ALL' | 'KEYS_ONLY';
}

export interface TableDefinition {
  /** CDK construct id. */
  id: string;
  /** Environment variable through which functions learn the table's name. */
  envVar: string;
  /** Table name in the local stack (in AWS, CloudFormation names it). */
  localName: string;
  partitionKey: KeyDefinition;
  sortKey?: KeyDefinition;
  indexes?: IndexDefinition[];
  /** Attribute holding an epoch-seconds expiry, if items expire. */
  timeToLiveAttribute?: string;
}

const S = (name: string): KeyDefinition => ({ name, type: 'S' });

export const tables = {
  /** Applications: the integrators' tenants. */
  apps: {
    id: 'AppsTable',
    envVar: 'APPS_TABLE',
    localName: 'urm-apps',
    partitionKey: S('app_id'),
  },
  /** API keys by the SHA-256 of the key; never the key itself. */
  keys: {
    id: 'KeysTable',
    envVar: 'KEYS_TABLE',
    localName: 'urm-keys',
    partitionKey: S('key_hash'),
    indexes: [{ name: 'by-app', kind: 'global', partitionKey: S('app_id'), sortKey: S('key_id') }],
  },
  /**
   * Profile state, one item per profile: attributes (JSON), the optimistic
   * version, and what makes application exactly once (last applied sequence
   * number per shard, recent insert ids, the last delete). `by-app` lists an
   * application's players (the back office): its keys, `app_id` and
   * `profile_id`, never change after the item is created and it copies only
   * keys, so applying a record writes no index entry; only a new player does.
   */
  profiles: {
    id: 'ProfilesTable',
    envVar: 'PROFILES_TABLE',
    localName: 'urm-profiles',
    partitionKey: S('pk'),
    indexes: [{ name: 'by-app', kind: 'global', partitionKey: S('app_id'), sortKey: S('profile_id'), projection: 'KEYS_ONLY' }],
  },
  /**
   * The players' search index (functions/domain/player-search.ts): one item
   * per term of a player (profile id, searchable attributes, full name),
   * `pk` = `<app_id>#<field>#<first character>`, `sk` = `<term>\u0000<profile_id>`,
   * so an exact or prefix search is one bounded Query per field. Keys only;
   * the profile consumer writes a player's changed terms.
   */
  playerSearch: {
    id: 'PlayerSearchTable',
    envVar: 'PLAYER_SEARCH_TABLE',
    localName: 'urm-player-search',
    partitionKey: S('pk'),
    sortKey: S('sk'),
  },
  /**
   * Timelines: page items of up to 1 KB, each holding events of one profile
   * written together, keyed by the time key of the page's newest event, so the
   * table's own order is time order (functions/domain/timeline-pages.ts).
   * A new table (the key changed from one item per event): old timelines are not carried over.
   */
  timeline: {
    id: 'TimelinePagesTable',
    envVar: 'TIMELINE_TABLE',
    localName: 'urm-timeline-pages',
    partitionKey: S('pk'),
    sortKey: S('sk'),
  },
  /** Records rejected when applied (wrong type), with the reason, for an operator; kept 14 days. */
  rejections: {
    id: 'RejectionsTable',
    envVar: 'REJECTIONS_TABLE',
    localName: 'urm-rejections',
    partitionKey: S('app_id'),
    sortKey: S('rejection_id'),
    timeToLiveAttribute: 'expires_at',
  },
  /**
   * Affiliates, one partition per application: `affiliate#<affiliate_id>` items
   * and `email#<email>` / `username#<username>` claims (trimmed, lower-case),
   * written together in one transaction of conditional puts.
   */
  affiliates: {
    id: 'AffiliatesTable',
    envVar: 'AFFILIATES_TABLE',
    localName: 'urm-affiliates',
    partitionKey: S('app_id'),
    sortKey: S('sk'),
  },
  /** Email channels of an application: the default sender of send_email, and whether it may send. */
  channels: {
    id: 'ChannelsTable',
    envVar: 'CHANNELS_TABLE',
    localName: 'urm-channels',
    partitionKey: S('app_id'),
    sortKey: S('channel_id'),
  },
  /**
   * Senders the operator assigned to applications, one partition per domain
   * (`domain`): the domain's own item (`sender` = the domain), which is its
   * claim when it carries `app_id` and counts every claim at the domain
   * (`writes`), and one item per claimed address (`sender` = the address).
   * Keyed across applications, so a sender is claimed by one application only,
   * with conditional writes (functions/adapters/dynamo-sender-store.ts).
   * `by-app` lists an application's senders: only claims carry `app_id`.
   */
  senders: {
    id: 'SendersTable',
    envVar: 'SENDERS_TABLE',
    localName: 'urm-senders',
    partitionKey: S('domain'),
    sortKey: S('sender'),
    indexes: [{ name: 'by-app', kind: 'global', partitionKey: S('app_id'), sortKey: S('sender') }],
  },
  /**
   * Enterprise users: `user#<app_id>#<user_id>` items (with their role),
   * `email#<app_id>#<email>` claims and a `roster#<app_id>` admin count,
   * written together in one transaction (an email is one user per application;
   * an application keeps an admin). `by-app` lists an application's users:
   * only user items carry both its keys, which never change, so it costs a
   * write per sign-up and none per role change.
   */
  enterpriseUsers: {
    id: 'EnterpriseUsersTable',
    envVar: 'ENTERPRISE_USERS_TABLE',
    localName: 'urm-enterprise-users',
    partitionKey: S('pk'),
    indexes: [{ name: 'by-app', kind: 'global', partitionKey: S('app_id'), sortKey: S('created_at') }],
  },
  /**
   * The back office's audit log: one item per state-changing action, by
   * application (`sk` = `<time>#<random>`, newest first when read backwards);
   * kept 400 days, swept by TTL.
   */
  auditLog: {
    id: 'AuditLogTable',
    envVar: 'AUDIT_LOG_TABLE',
    localName: 'urm-audit-log',
    partitionKey: S('app_id'),
    sortKey: S('sk'),
    timeToLiveAttribute: 'ttl',
  },
  /** One-time sign-in tokens by the SHA-256 of the token; valid 5 minutes, swept by TTL. */
  signInTokens: {
    id: 'SignInTokensTable',
    envVar: 'SIGN_IN_TOKENS_TABLE',
    localName: 'urm-sign-in-tokens',
    partitionKey: S('token_hash'),
    timeToLiveAttribute: 'ttl',
  },
  /** Enterprise portal sessions by the SHA-256 of the session id; swept by TTL. */
  portalSessions: {
    id: 'PortalSessionsTable',
    envVar: 'PORTAL_SESSIONS_TABLE',
    localName: 'urm-portal-sessions',
    partitionKey: S('session_hash'),
    timeToLiveAttribute: 'ttl',
  },
  /**
   * Web push deliveries, one item per subscription a notification was sent
   * to (`pk` = `app_id#notification_id`, `subscription` = SHA-256 of the
   * endpoint), written before sending: a retried send_push skips them. Kept 48 hours.
   */
  pushDeliveries: {
    id: 'PushDeliveriesTable',
    envVar: 'PUSH_DELIVERIES_TABLE',
    localName: 'urm-push-deliveries',
    partitionKey: S('pk'),
    sortKey: S('subscription'),
    timeToLiveAttribute: 'expires_at',
  },
  /**
   * Tracking links by id (the click address carries only the id), and by
   * affiliate through `by-affiliate` (`owner` = app_id#affiliate_id), whose
   * keys never change after the link is created.
   */
  links: {
    id: 'LinksTable',
    envVar: 'LINKS_TABLE',
    localName: 'urm-links',
    partitionKey: S('link_id'),
    indexes: [{ name: 'by-affiliate', kind: 'global', partitionKey: S('owner'), sortKey: S('created_at') }],
  },
  /**
   * Counted clicks by the hash of link and visitor, for 24 hours: a visitor's repeated clicks count once; each
   * client address's count of new visitors per link and UTC day; and the key that signs visitor cookies.
   */
  clickClaims: {
    id: 'ClickClaimsTable',
    envVar: 'CLICK_CLAIMS_TABLE',
    localName: 'urm-click-claims',
    partitionKey: S('claim'),
    timeToLiveAttribute: 'expires_at',
  },
  /**
   * The affiliate funnel (functions/domain/affiliate-program.ts):
   * `a#<app_id>#<affiliate_id>` partitions hold the day rows (`d#<day>#<link_id>`),
   * registrations (`r#<day>#<profile_id>`) and first deposits (`f#<day>#<profile_id>`);
   * `p#<app_id>#<profile_id>` partitions hold a player's ledger (`ledger`):
   * the attribution, the first deposit, money seen before the attribution, and
   * the exactly-once bookkeeping; `app#<app_id>` partitions hold the
   * application's day rows (`d#<day>`: every player's money and first
   * deposits). Affiliate partitions also hold the postback
   * delivery log (`pb#<at>#<event_id>`, expiring). `postbacks-due` is the
   * postback outbox: sparse, only registration and FTD rows whose postback is
   * due carry its keys (functions/domain/postbacks.ts).
   */
  funnel: {
    id: 'FunnelTable',
    envVar: 'FUNNEL_TABLE',
    localName: 'urm-funnel',
    partitionKey: S('pk'),
    sortKey: S('sk'),
    indexes: [{ name: 'postbacks-due', kind: 'global', partitionKey: S('postback_queue'), sortKey: S('postback_due') }],
    timeToLiveAttribute: 'expires_at',
  },
  /**
   * An application's player counts (functions/domain/figures.ts), one
   * partition per application (`app#<app_id>`): `total`, the players that exist,
   * and `d#<day>`, the profiles that came into being that UTC day. Moved only by
   * the profile consumer, with ADDs in the transaction of the profile's write.
   */
  figures: {
    id: 'FiguresTable',
    envVar: 'FIGURES_TABLE',
    localName: 'urm-figures',
    partitionKey: S('pk'),
    sortKey: S('sk'),
  },
  /**
   * Affiliate portal sessions by the SHA-256 of the session id, and by
   * affiliate through `by-affiliate` (`owner` = app_id#affiliate_id: a password
   * reset ends them all); swept by TTL at the idle or absolute end.
   */
  affiliateSessions: {
    id: 'AffiliateSessionsTable',
    envVar: 'AFFILIATE_SESSIONS_TABLE',
    localName: 'urm-affiliate-sessions',
    partitionKey: S('session_hash'),
    indexes: [{ name: 'by-affiliate', kind: 'global', partitionKey: S('owner'), sortKey: S('created_at') }],
    timeToLiveAttribute: 'ttl',
  },
  /**
   * Failed affiliate sign-ins per account (`account#<app_id>#<login>`) and per
   * client address (`client#<app_id>#<ip>`) in 15-minute windows: conditional
   * counters, swept by TTL when their window ends.
   */
  signInAttempts: {
    id: 'SignInAttemptsTable',
    envVar: 'SIGN_IN_ATTEMPTS_TABLE',
    localName: 'urm-sign-in-attempts',
    partitionKey: S('attempt_key'),
    timeToLiveAttribute: 'ttl',
  },
  /** Affiliate password-reset tokens by the SHA-256 of the token; usable once within an hour, swept by TTL. */
  resetTokens: {
    id: 'ResetTokensTable',
    envVar: 'RESET_TOKENS_TABLE',
    localName: 'urm-reset-tokens',
    partitionKey: S('token_hash'),
    timeToLiveAttribute: 'ttl',
  },
  /**
   * Segments (functions/domain/segments/model.ts): definitions and their size
   * shards (`app#<app_id>`), members (`m#<app_id>#<segment_id>`), and each
   * player's segment state (`p#<app_id>#<profile_id>`). `due` is sparse: only
   * a state with a moment when time alone may change a membership carries its
   * keys, so the timer reads what is due, never every player.
   */
  segments: {
    id: 'SegmentsTable',
    envVar: 'SEGMENTS_TABLE',
    localName: 'urm-segments',
    partitionKey: S('pk'),
    sortKey: S('sk'),
    indexes: [{ name: 'due', kind: 'global', partitionKey: S('due_part'), sortKey: S('due_at'), projection: 'KEYS_ONLY' }],
  },
  /**
   * The send gate's state (functions/adapters/dynamo-send-gate.ts): marketing messages sent per player and
   * channel in the player's local day and ISO week (`c#<app_id>#<profile_id>`, sort key the channel: one item,
   * expiring after its week), and the deferred outbox (`app#<app_id>`, `msg#<message_id>`: the whole message,
   * sent when quiet hours end). `due` is sparse: only a waiting message carries its keys.
   */
  sendGate: {
    id: 'SendGateTable',
    envVar: 'SEND_GATE_TABLE',
    localName: 'urm-send-gate',
    partitionKey: S('pk'),
    sortKey: S('sk'),
    indexes: [{ name: 'due', kind: 'global', partitionKey: S('due_part'), sortKey: S('due_at') }],
    timeToLiveAttribute: 'expires_at',
  },
  /**
   * Campaigns (templates, journeys, broadcasts and their results): templates (`app#<app_id>`, `tpl#<template_id>`);
   * journeys (`app#<app_id>`, `jny#<journey_id>`), their versions (`jv#<app_id>#<journey_id>`) and each player's
   * instances (`ji#<app_id>#<profile_id>`); broadcasts (`app#<app_id>`, `bc#<broadcast_id>`) and their recipients
   * (`bcr#<app_id>#<broadcast_id>`); results (`res#…`). `due` is sparse: only what waits for a time (a journey's
   * timer, a broadcast's next send) carries its keys, so the timers read what is due, never every player.
   */
  campaigns: {
    id: 'CampaignsTable',
    envVar: 'CAMPAIGNS_TABLE',
    localName: 'urm-campaigns',
    partitionKey: S('pk'),
    sortKey: S('sk'),
    indexes: [{ name: 'due', kind: 'global', partitionKey: S('due_part'), sortKey: S('due_at') }],
    timeToLiveAttribute: 'expires_at',
  },
} satisfies Record<string, TableDefinition>;

export type TableName = keyof typeof tables;

export interface StreamDefinition {
  id: string;
  envVar: string;
  localName: string;
  /** In AWS the stream is on-demand; the local emulator needs a shard count. */
  localShardCount: number;
  /**
   * How long the stream keeps a record (AWS; kinesalite keeps what it has). Longer than any consumer's
   * maxRecordAgeSeconds, so a batch sent to the on-failure destination can still be read and replayed.
   */
  retentionDays: number;
}

/** The ingestion stream: every accepted profile and event record. */
export const ingestStream: StreamDefinition = {
  id: 'IngestStream',
  envVar: 'STREAM_NAME',
  localName: 'urm-ingest',
  localShardCount: 2,
  retentionDays: 7,
};

/**
 * Sending email: SES v2 in AWS (lib/aws/constructs/email.ts), aws-ses-v2-local in
 * the local stack. Functions that send learn the configuration set here.
 */
export const emailSending = {
  configurationSetEnvVar: 'SES_CONFIGURATION_SET',
} as const;

/**
 * Web push: the hosts push endpoints may be on besides the browsers' push
 * services (functions/domain/push.ts), from the CDK context
 * `urm:pushEndpointHosts` in AWS and set by the local stack for its push
 * service. Read by the functions that store or send to tokens.
 */
export const pushSending = {
  endpointHostsEnvVar: 'PUSH_ENDPOINT_HOSTS',
} as const;

/**
 * Affiliate postbacks: hosts an operator allows besides public https hosts
 * (plain http, any port, private addresses: development receivers only), from
 * the CDK context `urm:postbackHosts` in AWS and set by the local stack for
 * its test receivers on 127.0.0.1. Read by the postback sender.
 */
export const postbackSending = {
  allowedHostsEnvVar: 'POSTBACK_ALLOWED_HOSTS',
} as const;

/** Name of the stack output that carries a table's physical name (read by the admin command line). */
export function tableOutputName(definition: Pick<TableDefinition, 'id'>): string {
  return `${definition.id}Name`;
}
