/**
 * The back office's players: find them, read one (attributes with their
 * types, push devices, affiliate attribution, rejected records, lifetime
 * money from the funnel's ledger), page through
 * a timeline, and set or unset an attribute. Reads go to the tables; a change
 * goes on the ingestion stream as an integrator's record would, with an
 * `urm_back_office_action` event saying who made it, so it is applied exactly
 * once and shows on the timeline. Every call is for the signed-in user's own
 * application: another application's player is simply not found.
 */
import { defaultCurrency } from '../domain/affiliate-program';
import type { App, AppStore } from '../domain/apps';
import type { AttributeValue, Attributes } from '../domain/attributes';
import { affiliateAttributes, pushTokenAttributes } from '../domain/attributes';
import type { AuditLog } from '../domain/audit';
import { ngrOf } from '../domain/commission';
import { NotFound, ValidationError } from '../domain/errors';
import type { PlayerCountReader } from '../domain/figures';
import { eventMoney, ledgerPk, zeroMoney, type FunnelStore, type LedgerReader, type StoredLedger } from '../domain/funnel';
import type { MoneyKind } from '../domain/affiliate-program';
import { moneySettingsOf } from '../domain/money-settings';
import { toStreamEntries, type RecordWriter } from '../domain/ingest';
import pLimit from 'p-limit';
import {
  rankHits,
  searchAttributesOf,
  searchChange,
  searchSettingOf,
  searchLimits,
  searchQueries,
  stillMatches,
  type PlayerSearchIndex,
  type RankedHit,
  type SearchQuery,
} from '../domain/player-search';
import { partitionKey } from '../domain/stream-record';
import {
  decide,
  EMAIL_SUPPRESSED_ATTRIBUTE,
  gateChannels,
  localMoment,
  playerTimeZone,
  type GateAnswer,
  type GateChannel,
  type SentCounts,
} from '../domain/send-gate';
import { nowFor } from '../runtime/clock';
import { audit } from './audit';
import type { StoredProfile } from '../domain/profile-state';
import { isBefore, type ProfileStore, type Rejection, type RejectionLog, type TimelineEntry, type TimelineStore } from '../domain/timeline';

export const playerLimits = {
  defaultPageSize: 50,
  maxPageSize: 100,
  /** Rejections are kept by application: how many of the newest a player's page looks through. */
  rejectionReadBudget: 500,
  /** A filtered timeline page reads at most this many entries per query, and this many queries. */
  filteredReadItems: 500,
  filteredReadQueries: 4,
  /** The player's page reads this many of the newest events: the last event, the names for the timeline's picklist. */
  recentEvents: 100,
  /** Then looks for the last login among at most this many older events per query, and this many queries. */
  loginReadItems: 500,
  loginReadQueries: 2,
} as const;

/**
 * The event that counts as a login on the player page. The application's
 * settings have no such notion: `Login` is the name the README's and the
 * demo's integrations send (docs/api.md, "Players").
 */
export const LOGIN_EVENT = 'Login';

/** The event a back-office change puts on the player's timeline. */
export const backOfficeActionEvent = 'urm_back_office_action';

export interface PlayerIdPage {
  profileIds: string[];
  /** The profile id the page ended on, when there may be more. */
  last?: string;
}

/** Port: an application's player ids in order (the profiles table's `by-app` index). */
export interface PlayerDirectory {
  page(appId: string, options: { prefix?: string; limit: number; after?: string }): Promise<PlayerIdPage>;
}

export interface PlayerPorts {
  directory: PlayerDirectory;
  /** The application's players counter (the `figures` table), for the list's total. */
  playerCounts: Pick<PlayerCountReader, 'players'>;
  profiles: Pick<ProfileStore, 'get' | 'getMany'>;
  timeline: Pick<TimelineStore, 'page' | 'oldest'>;
  rejections: Pick<RejectionLog, 'listForProfile'>;
  /** The application's main currency, which the funnel counts money in. */
  apps: Pick<AppStore, 'get'>;
  /** The funnel consumer's ledger of each player: its lifetime money (one player's, or a page's in one BatchGetItem). */
  ledgers: LedgerReader & Pick<FunnelStore, 'ledgers'>;
  /** The players' search index (functions/domain/player-search.ts). */
  search: Pick<PlayerSearchIndex, 'find'>;
  writer: RecordWriter;
  /** Every change made from the back office is in the audit log (back-office/audit.ts). */
  audit: AuditLog;
  newId: () => string;
  now: () => Date;
  /** The marketing messages sent in the player's local day and week (the send gate's caps): the player page's gate line reads them. */
  sentCounts: Pick<SentCounts, 'read'>;
}

/** Who acts, as the console's auth gives it (functions/http/console-auth.ts). */
export interface Actor {
  appId: string;
  userId: string;
  email: string;
}

// ---- cursors ---------------------------------------------------------------

const invalidCursor = () => new ValidationError(['cursor is not one this list gave'], 'request is invalid');

function encode(values: string[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

function decode(cursor: string, length: number): string[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(values) || values.length !== length || values.some((v) => typeof v !== 'string')) throw invalidCursor();
  return values as string[];
}

const pageSize = (limit: string | undefined) => (limit === undefined ? playerLimits.defaultPageSize : Number(limit));

// ---- the list ------------------------------------------------------------

/** A player's attribute as a list shows it: scalars only, long text cut. */
export type ListedValue = string | number | boolean | null;

export const listLimits = {
  /** Attributes of each listed player (by name order), for the list's columns. */
  attributes: 40,
  /** Characters of a listed text attribute. */
  textLength: 200,
  /** Ranked hits a search checks against their profiles (one BatchGetItem). */
  candidates: 100,
} as const;

export interface PlayerSummary {
  profile_id: string;
  updated_at: string;
  /** first_name and last_name, else `name`; null when the player has neither. */
  name: string | null;
  email: string | null;
  /** The player's scalar attributes (push tokens aside, text cut at 200 characters), for the list's columns. */
  attributes: Record<string, ListedValue>;
  money: PlayerMoney;
  /** A search's hit: what it matched (`profile_id`, `full name` or an attribute) and whether exactly. */
  matched?: { by: string; exact: boolean };
}

export interface PlayerList {
  players: PlayerSummary[];
  next_cursor: string | null;
  /** The application's players that exist, whatever the prefix: counted as profiles are applied, exact. */
  total: number;
}

const hidden = new Set<string>(pushTokenAttributes);

function listedAttributes(attributes: Attributes): Record<string, ListedValue> {
  const listed: Record<string, ListedValue> = {};
  for (const name of Object.keys(attributes).sort()) {
    if (Object.keys(listed).length === listLimits.attributes) break;
    const value = attributes[name];
    if (hidden.has(name) || Array.isArray(value) || value === undefined) continue;
    listed[name] = typeof value === 'string' && [...value].length > listLimits.textLength ? `${[...value].slice(0, listLimits.textLength).join('')}…` : value;
  }
  return listed;
}

function nameOf(attributes: Attributes): string | null {
  const text = (name: string) =>
    typeof attributes[name] === 'string' && (attributes[name] as string).trim() ? (attributes[name] as string).trim() : undefined;
  const full = [text('first_name'), text('last_name')].filter(Boolean).join(' ');
  return full || text('name') || null;
}

const matchedBy = (hit: RankedHit): PlayerSummary['matched'] => ({
  by: hit.query.field.kind === 'attribute' ? hit.query.field.name : hit.query.field.kind === 'name' ? 'full name' : 'profile_id',
  exact: hit.exact,
});

/** The rows of `profileIds` that still exist, with their money: one BatchGetItem of their ledgers. */
async function rowsOf(
  ports: Pick<PlayerPorts, 'apps' | 'ledgers'>,
  appId: string,
  found: { profileId: string; stored: StoredProfile; hit?: RankedHit }[],
): Promise<PlayerSummary[]> {
  if (found.length === 0) return [];
  const [app, ledgers] = await Promise.all([ports.apps.get(appId), ports.ledgers.ledgers(found.map(({ profileId }) => ledgerPk(appId, profileId)))]);
  const currency = app?.currency ?? defaultCurrency;
  return found.map(({ profileId, stored, hit }) => {
    const attributes = JSON.parse(stored.attrs) as Attributes;
    return {
      profile_id: profileId,
      updated_at: stored.updated_at,
      name: nameOf(attributes),
      email: typeof attributes.email === 'string' ? attributes.email : null,
      attributes: listedAttributes(attributes),
      money: playerMoneyOf(ledgers.get(ledgerPk(appId, profileId)), currency),
      ...(hit ? { matched: matchedBy(hit) } : {}),
    };
  });
}

const listedFields: (keyof StoredProfile)[] = ['pk', 'exists', 'updated_at', 'attrs'];

/**
 * A page of the application's players in profile id order, those whose id
 * starts with `prefix` if given (an exact id comes first). A deleted player's
 * item stays (it remembers the delete), so a page may hold fewer than `limit`.
 * With `q`, a search instead (searchPlayers): one bounded answer, no cursor.
 */
export function listPlayers(ports: Pick<PlayerPorts, 'directory' | 'profiles' | 'apps' | 'ledgers' | 'search' | 'playerCounts'>) {
  const search = searchPlayers(ports);
  return async (actor: Pick<Actor, 'appId'>, query: { q?: string; prefix?: string; cursor?: string; limit?: string }): Promise<PlayerList> => {
    if (query.q !== undefined && query.q.trim() !== '') {
      if (query.cursor !== undefined || query.prefix !== undefined) throw new ValidationError(['q is not paged, nor given with prefix'], 'request is invalid');
      const [players, total] = await Promise.all([search(actor, query.q), ports.playerCounts.players(actor.appId)]);
      return { players, next_cursor: null, total };
    }
    const after = query.cursor === undefined ? undefined : decode(query.cursor, 1)[0];
    if (after !== undefined && query.prefix !== undefined && !after.startsWith(query.prefix)) throw invalidCursor();
    const [page, total] = await Promise.all([
      ports.directory.page(actor.appId, { prefix: query.prefix, limit: pageSize(query.limit), after }),
      ports.playerCounts.players(actor.appId),
    ]);
    const pks = page.profileIds.map((id) => partitionKey(actor.appId, id));
    const stored = await ports.profiles.getMany(pks, listedFields);
    const found = page.profileIds.flatMap((profileId, i) => {
      const item = stored.get(pks[i]!);
      return item?.exists ? [{ profileId, stored: item }] : [];
    });
    return { players: await rowsOf(ports, actor.appId, found), next_cursor: page.last === undefined ? null : encode([page.last]), total };
  };
}

/**
 * Finds players by profile id, searchable attribute or full name: case does
 * not matter, a whole value or its beginning matches (docs/api.md, "Finding
 * players"). One bounded Query per field of the index, and one of the
 * profiles' own id order (players applied before the index was); each
 * player once, exact matches before prefixes, at most 50; every hit checked
 * against the profile, so a term the profile no longer has finds nobody.
 */
export function searchPlayers(ports: Pick<PlayerPorts, 'directory' | 'profiles' | 'apps' | 'ledgers' | 'search'>) {
  return async (actor: Pick<Actor, 'appId'>, text: string): Promise<PlayerSummary[]> => {
    const searchable = searchAttributesOf(await ports.apps.get(actor.appId));
    const raw = text.trim();
    const [first, ...rest] = searchQueries(raw, searchable);
    if (first === undefined) return [];
    const queries: SearchQuery[] = [first, { field: { kind: 'id' }, text: raw, ids: true }, ...rest];
    const hits = await Promise.all(
      queries.map(async (query) => {
        if (!query.ids) return ports.search.find(actor.appId, query.field, query.text, searchLimits.perQuery);
        const page = await ports.directory.page(actor.appId, { prefix: query.text, limit: searchLimits.perQuery });
        return page.profileIds.map((profileId) => ({ profileId, term: profileId }));
      }),
    );
    const ranked = rankHits(queries, hits).slice(0, listLimits.candidates);
    const stored = await ports.profiles.getMany(
      ranked.map((hit) => partitionKey(actor.appId, hit.profileId)),
      listedFields,
    );
    const found = ranked.flatMap((hit) => {
      const item = stored.get(partitionKey(actor.appId, hit.profileId));
      const attributes = item?.exists ? (JSON.parse(item.attrs) as Attributes) : undefined;
      return item && stillMatches(hit, hit.profileId, attributes, searchable) ? [{ profileId: hit.profileId, stored: item, hit }] : [];
    });
    return rowsOf(ports, actor.appId, found.slice(0, searchLimits.results));
  };
}

// ---- one player ------------------------------------------------------------

export type AttributeType = 'string' | 'number' | 'boolean' | 'array' | 'null';

export function typeOf(value: AttributeValue | null): AttributeType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as 'string' | 'number' | 'boolean';
}

export interface PushDevice {
  platform: 'web' | 'ios' | 'android';
  /** web: the push service's host; ios, android: the token's last characters (a device token is a credential). */
  service?: string;
  token_end?: string;
}

export interface PlayerView {
  profile_id: string;
  updated_at: string;
  attributes: { name: string; type: AttributeType; value: AttributeValue | null }[];
  push: { devices: PushDevice[]; receives_notifications: boolean | null };
  affiliate: { urm_aff_id: string | null; urm_aff_link_id: string | null; urm_aff: string | null } | null;
  rejections: { urm_insert_id: string; kind: Rejection['kind']; reason: string; received_at: string; rejected_at: string }[];
  /** False when only the application's newest rejections were looked through. */
  rejections_complete: boolean;
  money: PlayerMoney;
  /** The affiliate the funnel's ledger counts the player for (its first attribution); null: none. */
  attribution: { affiliate_id: string; link_id: string; day: string } | null;
  activity: PlayerActivity;
  /** The email address is suppressed after a hard bounce or a complaint (`urm_email_suppressed`). */
  suppressed: boolean;
  /** What the send gate would answer now to a marketing message without a topic, per channel. */
  gate: Record<GateChannel, GateLine>;
  /** The application's topics (Settings, "Messaging rules"). */
  topics: { name: string; label: string }[];
}

/** The send gate's answer as the player page shows it; `until`: the end of a deferral (ISO 8601). */
export interface GateLine {
  verdict: GateAnswer['verdict'];
  reason?: string;
  detail?: string;
  until?: string;
}

/** What the newest events and the oldest say, read in bounded steps (playerLimits). */
export interface PlayerActivity {
  /** The newest event; null: the timeline is empty. */
  last_event: { event: string; at: string } | null;
  /** The newest LOGIN_EVENT found; null: none among the events read. */
  last_login: { at: string } | null;
  /** When last_login is null and the search stopped before the oldest event: the time of the oldest event it read. */
  login_searched_to: string | null;
  /** The oldest event (the player's first sign of life); null: none. */
  first_event_at: string | null;
  /** The names among the newest events, sorted: the timeline's picklist. */
  event_names: string[];
}

/** A player's money ever, in the application's main currency: exact decimal strings, as the funnel counted them. */
export interface PlayerMoney {
  currency: string;
  deposits: string;
  withdrawals: string;
  /** bets − wins − bonuses, as affiliate reports define it. */
  ngr: string;
  deposit_count: number;
  first_deposit: { day: string; amount: string } | null;
  last_deposit: { day: string; amount: string } | null;
}

/** What a ledger (none: the player made no money event yet; an older one: no lifetime figures) says of the player's money. */
export function playerMoneyOf(ledger: StoredLedger | undefined, currency: string): PlayerMoney {
  const sums = ledger?.lifetime ?? zeroMoney();
  const deposit = (found: { day: string; amount: string } | undefined) => (found ? { day: found.day, amount: found.amount } : null);
  return {
    currency,
    deposits: sums.deposits,
    withdrawals: sums.withdrawals,
    ngr: ngrOf(sums).toFixed(),
    deposit_count: sums.deposit_count,
    first_deposit: deposit(ledger?.first_deposit),
    last_deposit: deposit(ledger?.last_deposit),
  };
}

const platforms = {
  urm_web_push_notification_token: 'web',
  urm_ios_push_notification_token: 'ios',
  urm_android_push_notification_token: 'android',
} as const satisfies Record<(typeof pushTokenAttributes)[number], PushDevice['platform']>;

function deviceOf(platform: PushDevice['platform'], token: AttributeValue): PushDevice {
  const text = String(token);
  if (platform !== 'web') return { platform, token_end: text.slice(-6) };
  try {
    const subscription = JSON.parse(text) as { endpoint?: unknown };
    return { platform, service: new URL(String(subscription.endpoint)).host };
  } catch {
    return { platform };
  }
}

function devicesOf(attributes: Attributes): PushDevice[] {
  return pushTokenAttributes.flatMap((name) => {
    const tokens = attributes[name];
    return Array.isArray(tokens) ? tokens.map((token) => deviceOf(platforms[name], token)) : [];
  });
}

function affiliateOf(attributes: Attributes): PlayerView['affiliate'] {
  if (affiliateAttributes.every((name) => attributes[name] === undefined || attributes[name] === null)) return null;
  const text = (name: (typeof affiliateAttributes)[number]) => (typeof attributes[name] === 'string' ? (attributes[name] as string) : null);
  return { urm_aff_id: text('urm_aff_id'), urm_aff_link_id: text('urm_aff_link_id'), urm_aff: text('urm_aff') };
}

async function existingPlayer(profiles: Pick<ProfileStore, 'get'>, appId: string, profileId: string) {
  // Consistent: a change made a moment ago through the stream is seen once applied.
  const stored = await profiles.get(partitionKey(appId, profileId), true);
  if (!stored?.exists) throw new NotFound('player not found');
  return stored;
}

/** Entries an unfinished delete still leaves are not the player's any more. */
const keptAfter = (deleted: StoredProfile['deleted']) => (entry: TimelineEntry) => !deleted || !isBefore(entry, deleted.shard, deleted.seq, deleted.at);

/**
 * The last event, the last login and the first event, without reading the
 * whole timeline: the newest events (one query), then older logins in at most
 * loginReadQueries bounded queries, and the oldest page (one query).
 */
export async function playerActivity(timeline: Pick<TimelineStore, 'page' | 'oldest'>, stored: StoredProfile): Promise<PlayerActivity> {
  const kept = keptAfter(stored.deleted);
  const [recent, oldest] = await Promise.all([timeline.page(stored.pk, playerLimits.recentEvents), timeline.oldest(stored.pk)]);
  const events = recent.entries.filter(kept);
  let login = events.find((entry) => entry.event === LOGIN_EVENT);
  let searchedTo = recent.entries.at(-1)?.urm_date_time ?? null;
  let from = recent.next;
  for (let queries = 0; !login && from !== undefined && queries < playerLimits.loginReadQueries; queries++) {
    const page = await timeline.page(stored.pk, playerLimits.loginReadItems, from, { event: LOGIN_EVENT });
    login = page.entries.find(kept);
    from = page.next;
    // The store gives the last read entry's key: its time is how far back the search went.
    if (page.next) searchedTo = page.next.ts.slice(0, page.next.ts.indexOf('#'));
  }
  const first = oldest !== undefined && kept(oldest) ? oldest : undefined;
  return {
    last_event: events[0] ? { event: events[0].event, at: events[0].urm_date_time } : null,
    last_login: login ? { at: login.urm_date_time } : null,
    login_searched_to: login || from === undefined ? null : searchedTo,
    first_event_at: first?.urm_date_time ?? null,
    event_names: [...new Set(events.map((entry) => entry.event))].sort(),
  };
}

/**
 * The gate line of a player, as the command line shows it (`players gate`):
 * the profile read consistently, as the gate reads it at send time.
 */
export function playerGate(ports: Pick<PlayerPorts, 'profiles' | 'apps' | 'sentCounts'>) {
  return async (appId: string, profileId: string): Promise<Record<GateChannel, GateLine>> => {
    const [stored, app] = await Promise.all([ports.profiles.get(partitionKey(appId, profileId), true), ports.apps.get(appId)]);
    if (!stored?.exists) throw new NotFound('player not found');
    return gateLines(ports, appId, profileId, JSON.parse(stored.attrs) as Attributes, app);
  };
}

/**
 * The gate's answer to a marketing message now (the application's clock),
 * per channel. The caps' counts are read only for a channel whose answer
 * would otherwise be send and which has a cap: most players cost no read.
 */
export async function gateLines(
  ports: Pick<PlayerPorts, 'sentCounts'>,
  appId: string,
  profileId: string,
  attributes: Attributes,
  app: Pick<App, 'messaging'> | undefined,
): Promise<Record<GateChannel, GateLine>> {
  const settings = app?.messaging;
  const now = nowFor(appId);
  const moment = localMoment(now, playerTimeZone(attributes, settings));
  const lineOf = async (channel: GateChannel): Promise<GateLine> => {
    const input = { attributes, channel, purpose: 'marketing' as const, settings, now, sent: { day: 0, week: 0 } };
    let answer = decide(input);
    const caps = settings?.caps?.[channel];
    if (answer.verdict === 'send' && (caps?.daily !== undefined || caps?.weekly !== undefined)) {
      answer = decide({ ...input, sent: await ports.sentCounts.read(appId, profileId, channel, moment) });
    }
    if (answer.verdict === 'send') return { verdict: 'send' };
    if (answer.verdict === 'defer') return { verdict: 'defer', reason: answer.reason, detail: answer.detail, until: answer.until.toISOString() };
    return { verdict: 'refuse', reason: answer.reason, detail: answer.detail };
  };
  const [email, push] = await Promise.all(gateChannels.map(lineOf));
  return { email: email!, push: push! };
}

export function getPlayer(ports: Pick<PlayerPorts, 'profiles' | 'rejections' | 'apps' | 'ledgers' | 'timeline' | 'sentCounts'>) {
  return async (actor: Pick<Actor, 'appId'>, profileId: string): Promise<PlayerView> => {
    const stored = await existingPlayer(ports.profiles, actor.appId, profileId);
    const attributes = JSON.parse(stored.attrs) as Attributes;
    const [found, app, ledger, activity] = await Promise.all([
      ports.rejections.listForProfile(actor.appId, profileId, playerLimits.rejectionReadBudget),
      ports.apps.get(actor.appId),
      ports.ledgers.ledger(actor.appId, profileId),
      playerActivity(ports.timeline, stored),
    ]);
    const attribution = ledger?.attribution;
    const receives = attributes.urm_receives_notifications;
    const gate = await gateLines(ports, actor.appId, profileId, attributes, app);
    return {
      profile_id: profileId,
      updated_at: stored.updated_at,
      attributes: Object.keys(attributes)
        .sort()
        .map((name) => ({ name, type: typeOf(attributes[name]!), value: attributes[name]! })),
      push: { devices: devicesOf(attributes), receives_notifications: typeof receives === 'boolean' ? receives : null },
      affiliate: affiliateOf(attributes),
      rejections: found.rejections.map(({ urm_insert_id, kind, reason, received_at, rejected_at }) => ({
        urm_insert_id,
        kind,
        reason,
        received_at,
        rejected_at,
      })),
      rejections_complete: found.complete,
      money: playerMoneyOf(ledger, app?.currency ?? defaultCurrency),
      attribution: attribution ? { affiliate_id: attribution.affiliate_id, link_id: attribution.link_id, day: attribution.day } : null,
      activity,
      // A hard bounce or a complaint (urm_email_suppressed): no email goes to the address, whatever the purpose.
      suppressed: typeof attributes[EMAIL_SUPPRESSED_ATTRIBUTE] === 'string',
      gate,
      // What a marketing message may be about (the send forms' Topic): a player who left one is not sent it.
      topics: (app?.messaging?.topics ?? []).map(({ name, label }) => ({ name, label })),
    };
  };
}

// ---- the timeline ----------------------------------------------------------

export interface PlayerTimeline {
  events: {
    event: string;
    urm_date_time: string;
    urm_insert_id: string;
    received_at: string;
    attributes: Record<string, unknown>;
    merged_from?: string;
    /** A money event of the application's mapping (money_events), read as the funnel reads it; absent when the event carries none it could count. */
    money?: { kind: MoneyKind; amount: string; currency: string };
  }[];
  next_cursor: string | null;
}

export interface TimelineQuery {
  /** Only events of this name; `event` is its older spelling. */
  name?: string;
  event?: string;
  /** Only events at or after `from`, before `to` (ISO 8601 date-times). */
  from?: string;
  to?: string;
  cursor?: string;
  limit?: string;
}

const cursorKeys = ['insert_id', 'ts'] as const;
const keyOf = (entry: TimelineEntry): Record<string, string> => ({ pk: entry.pk, insert_id: entry.insert_id, ts: entry.ts });

/** The time key just above every entry before `at`: a start that reads from `at` back (timeline.ts, timeKey). */
const startBefore = (pk: string, at: string) => ({ pk, insert_id: '', ts: `${new Date(at).toISOString()}#` });

/** The query's filters, or a 400 naming the field. */
function filtersOf(query: TimelineQuery) {
  const problems: string[] = [];
  if (query.name !== undefined && query.event !== undefined && query.name !== query.event) problems.push('name and event are the same filter: give one');
  if (query.from !== undefined && query.to !== undefined && Date.parse(query.from) >= Date.parse(query.to)) problems.push('from must be before to');
  if (problems.length > 0) throw new ValidationError(problems, 'query string is invalid');
  const name = query.name ?? query.event;
  return { name, fromKey: query.from === undefined ? undefined : `${new Date(query.from).toISOString()}#` };
}

/**
 * A player's timeline, newest first, system `urm_*` events included, only the
 * events named `name` and between `from` and `to` if given. The dates are a
 * key range (`to` is where the read starts, `from` where it stops); DynamoDB
 * filters names after reading, so a filtered page reads ahead in bounded
 * queries and may come back short, with a cursor. Entries an unfinished
 * delete still leaves are skipped the same way. Money events carry their
 * amount as the funnel reads it (funnel.ts, eventMoney).
 */
export function playerTimeline(ports: Pick<PlayerPorts, 'profiles' | 'timeline' | 'apps'>) {
  return async (actor: Pick<Actor, 'appId'>, profileId: string, query: TimelineQuery): Promise<PlayerTimeline> => {
    const { name, fromKey } = filtersOf(query);
    const [stored, app] = await Promise.all([existingPlayer(ports.profiles, actor.appId, profileId), ports.apps.get(actor.appId)]);
    const pk = partitionKey(actor.appId, profileId);
    let from: Record<string, string> | undefined =
      query.cursor !== undefined
        ? { pk, ...Object.fromEntries(decode(query.cursor, 2).map((v, i) => [cursorKeys[i], v])) }
        : query.to !== undefined
          ? startBefore(pk, query.to)
          : undefined;
    const limit = pageSize(query.limit);
    const only = name === undefined ? undefined : { event: name };
    const kept = keptAfter(stored.deleted);
    const found: TimelineEntry[] = [];
    let next: Record<string, string> | undefined;
    const readSize = only || stored.deleted ? playerLimits.filteredReadItems : limit;
    reading: for (let queries = 0; queries < playerLimits.filteredReadQueries; queries++) {
      const page = await ports.timeline.page(pk, readSize, from, only);
      for (const [i, entry] of page.entries.entries()) {
        // Newest first: the first entry before `from` ends the range.
        if (fromKey !== undefined && entry.ts < fromKey) {
          next = undefined;
          break reading;
        }
        if (!kept(entry)) continue;
        found.push(entry);
        if (found.length === limit) {
          const rest = page.entries.slice(i + 1);
          const inRange = (later: TimelineEntry) => fromKey === undefined || later.ts >= fromKey;
          next = rest.some(inRange) || (rest.every(inRange) && page.next !== undefined) ? keyOf(entry) : undefined;
          break reading;
        }
      }
      from = page.next;
      next = page.next;
      if (page.next === undefined) break;
    }
    const settings = moneySettingsOf(app ?? { currency: defaultCurrency });
    return {
      events: found.map((entry) => {
        const attributes = JSON.parse(entry.attrs) as Record<string, unknown>;
        return {
          event: entry.event,
          urm_date_time: entry.urm_date_time,
          urm_insert_id: entry.insert_id,
          received_at: entry.received_at,
          attributes,
          ...(entry.merged_from ? { merged_from: entry.merged_from } : {}),
          ...moneyOf(entry.event, attributes, settings),
        };
      }),
      next_cursor: next === undefined ? null : encode(cursorKeys.map((key) => next[key]!)),
    };
  };
}

/** The money of an event the application maps to a kind, when the funnel could count it. */
function moneyOf(
  event: string,
  attributes: Record<string, unknown>,
  settings: ReturnType<typeof moneySettingsOf>,
): Pick<PlayerTimeline['events'][number], 'money'> {
  if (!Object.hasOwn(settings.money_events, event)) return {};
  const money = eventMoney(attributes, settings.currency);
  return 'reason' in money ? {} : { money: { kind: settings.money_events[event]!, amount: money.amount, currency: money.currency } };
}

// ---- acting on a player ----------------------------------------------------

export type AttributeChange =
  | { action: 'set'; attribute: string; value: AttributeValue; action_id?: string }
  | { action: 'unset'; attribute: string; action_id?: string };

/** The stream refused part of the change: nothing may be applied yet; re-sending the same action_id is safe. */
export class ChangeNotWritten extends Error {
  override name = 'ChangeNotWritten';
  constructor(readonly failed: number) {
    super(`the stream refused ${failed} of the change's records`);
  }
}

/**
 * Sets or unsets (to null, as `urm_unset` does) one custom attribute: a
 * profile record and an `urm_back_office_action` event naming the user, in one
 * stream write under the player's partition key, both with the same insert id.
 * A console that retries with the same `action_id` changes the player once.
 */
export function changePlayerAttribute(ports: Pick<PlayerPorts, 'profiles' | 'writer' | 'audit' | 'newId' | 'now'>) {
  const record = audit(ports);
  return async (actor: Actor, profileId: string, change: AttributeChange): Promise<{ message_id: string }> => {
    await existingPlayer(ports.profiles, actor.appId, profileId);
    const messageId = change.action_id ?? ports.newId();
    const now = ports.now();
    const at = { newId: ports.newId, now: () => now };
    const common = { app_id: actor.appId, profile_id: profileId, urm_date_time: now.toISOString(), urm_insert_id: `urm-bo-${messageId}` };
    const directive = change.action === 'set' ? { urm_set: { [change.attribute]: change.value } } : { urm_unset: [change.attribute] };
    const entries = [
      ...toStreamEntries('profile', [{ ...common, ...directive }], actor.appId, at),
      ...toStreamEntries(
        'event',
        [
          {
            ...common,
            event: backOfficeActionEvent,
            action: change.action === 'set' ? 'set_attribute' : 'unset_attribute',
            attribute: change.attribute,
            ...(change.action === 'set' ? { value: change.value } : {}),
            user_id: actor.userId,
            user_email: actor.email,
          },
        ],
        actor.appId,
        at,
      ),
    ];
    const receipt = await ports.writer.write(entries);
    if (receipt.FailedRecordCount > 0) throw new ChangeNotWritten(receipt.FailedRecordCount);
    await record({
      appId: actor.appId,
      actor: { user_id: actor.userId, email: actor.email },
      action: change.action === 'set' ? 'player.attribute_set' : 'player.attribute_unset',
      target: `player:${profileId}`,
      details: { attribute: change.attribute, ...(change.action === 'set' ? { value: change.value } : {}), message_id: messageId },
    });
    return { message_id: messageId };
  };
}

// ---- reindexing ------------------------------------------------------------

export interface ReindexPage {
  /** Players read on this page (deleted ones included: they have no terms). */
  read: number;
  /** Players whose terms were written. */
  written: number;
  next_cursor: string | null;
}

/**
 * Gives one page of the application's players (profile id order) every
 * term of the current setting, and takes back those of the setting before
 * its last change: what the profile consumer does for a player it applies,
 * for players not applied since (or applied before the index existed).
 * Repeating a page is harmless; follow `next_cursor` to go on where it
 * stopped. A player the consumer changes meanwhile may keep a term it lost
 * until its next change: searches check every hit against the profile.
 */
export function reindexPlayers(ports: Pick<PlayerPorts, 'directory' | 'profiles' | 'apps'> & { search: Pick<PlayerSearchIndex, 'write'> }) {
  return async (appId: string, options: { cursor?: string; limit: number }): Promise<ReindexPage> => {
    const setting = searchSettingOf(await ports.apps.get(appId));
    const after = options.cursor === undefined ? undefined : decode(options.cursor, 1)[0];
    const page = await ports.directory.page(appId, { limit: Math.min(Math.max(1, options.limit), playerLimits.maxPageSize), after });
    const pks = page.profileIds.map((id) => partitionKey(appId, id));
    const stored = await ports.profiles.getMany(pks, ['pk', 'exists', 'attrs']);
    const limit = pLimit(10);
    const written = await Promise.all(
      page.profileIds.map((profileId, i) =>
        limit(async () => {
          const item = stored.get(pks[i]!);
          if (!item?.exists) return 0;
          const attributes = JSON.parse(item.attrs) as Attributes;
          // No time of its own: taken as applied before the setting's change, so every term is put and the old ones go.
          const change = searchChange(profileId, { attributes }, attributes, { ...setting, changedAt: setting.changedAt ?? '' });
          await ports.search.write(appId, profileId, change);
          return 1;
        }),
      ),
    );
    return { read: page.profileIds.length, written: written.filter(Boolean).length, next_cursor: page.last === undefined ? null : encode([page.last]) };
  };
}
