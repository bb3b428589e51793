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
import type { AppStore } from '../domain/apps';
import type { AttributeValue, Attributes } from '../domain/attributes';
import { affiliateAttributes, pushTokenAttributes } from '../domain/attributes';
import type { AuditLog } from '../domain/audit';
import { ngrOf } from '../domain/commission';
import { NotFound, ValidationError } from '../domain/errors';
import type { PlayerCountReader } from '../domain/figures';
import { zeroMoney, type LedgerReader, type StoredLedger } from '../domain/funnel';
import { toStreamEntries, type RecordWriter } from '../domain/ingest';
import { partitionKey } from '../domain/stream-record';
import { audit } from './audit';
import { isBefore, type ProfileStore, type Rejection, type RejectionLog, type TimelineEntry, type TimelineStore } from '../domain/timeline';

export const playerLimits = {
  defaultPageSize: 50,
  maxPageSize: 100,
  /** Rejections are kept by application: how many of the newest a player's page looks through. */
  rejectionReadBudget: 500,
  /** A filtered timeline page reads at most this many entries per query, and this many queries. */
  filteredReadItems: 500,
  filteredReadQueries: 4,
} as const;

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
  timeline: Pick<TimelineStore, 'page'>;
  rejections: Pick<RejectionLog, 'listForProfile'>;
  /** The application's main currency, which the funnel counts money in. */
  apps: Pick<AppStore, 'get'>;
  /** The funnel consumer's ledger of each player: its lifetime money. */
  ledgers: LedgerReader;
  writer: RecordWriter;
  /** Every change made from the back office is in the audit log (back-office/audit.ts). */
  audit: AuditLog;
  newId: () => string;
  now: () => Date;
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

// ---- the list --------------------------------------------------------------

export interface PlayerSummary {
  profile_id: string;
  updated_at: string;
}

export interface PlayerList {
  players: PlayerSummary[];
  next_cursor: string | null;
  /** The application's players that exist, whatever the prefix: counted as profiles are applied, exact. */
  total: number;
}

/**
 * A page of the application's players in profile id order, those whose id
 * starts with `prefix` if given (an exact id comes first). A deleted player's
 * item stays (it remembers the delete), so a page may hold fewer than `limit`.
 */
export function listPlayers(ports: Pick<PlayerPorts, 'directory' | 'profiles' | 'playerCounts'>) {
  return async (actor: Pick<Actor, 'appId'>, query: { prefix?: string; cursor?: string; limit?: string }): Promise<PlayerList> => {
    const after = query.cursor === undefined ? undefined : decode(query.cursor, 1)[0];
    if (after !== undefined && query.prefix !== undefined && !after.startsWith(query.prefix)) throw invalidCursor();
    const [page, total] = await Promise.all([
      ports.directory.page(actor.appId, { prefix: query.prefix, limit: pageSize(query.limit), after }),
      ports.playerCounts.players(actor.appId),
    ]);
    const pks = page.profileIds.map((id) => partitionKey(actor.appId, id));
    const stored = await ports.profiles.getMany(pks, ['pk', 'exists', 'updated_at']);
    const players = page.profileIds.flatMap((id, i) => {
      const item = stored.get(pks[i]!);
      return item?.exists ? [{ profile_id: id, updated_at: item.updated_at }] : [];
    });
    return { players, next_cursor: page.last === undefined ? null : encode([page.last]), total };
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

export function getPlayer(ports: Pick<PlayerPorts, 'profiles' | 'rejections' | 'apps' | 'ledgers'>) {
  return async (actor: Pick<Actor, 'appId'>, profileId: string): Promise<PlayerView> => {
    const stored = await existingPlayer(ports.profiles, actor.appId, profileId);
    const attributes = JSON.parse(stored.attrs) as Attributes;
    const [found, app, ledger] = await Promise.all([
      ports.rejections.listForProfile(actor.appId, profileId, playerLimits.rejectionReadBudget),
      ports.apps.get(actor.appId),
      ports.ledgers.ledger(actor.appId, profileId),
    ]);
    const receives = attributes.urm_receives_notifications;
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
  }[];
  next_cursor: string | null;
}

const cursorKeys = ['insert_id', 'ts'] as const;
const keyOf = (entry: TimelineEntry): Record<string, string> => ({ pk: entry.pk, insert_id: entry.insert_id, ts: entry.ts });

/**
 * A player's timeline, newest first, system `urm_*` events included, only the
 * events named `event` if given. DynamoDB filters after reading, so a filtered
 * page reads ahead in bounded queries and may come back short, with a cursor.
 * Entries an unfinished delete still leaves are skipped the same way.
 */
export function playerTimeline(ports: Pick<PlayerPorts, 'profiles' | 'timeline'>) {
  return async (actor: Pick<Actor, 'appId'>, profileId: string, query: { event?: string; cursor?: string; limit?: string }): Promise<PlayerTimeline> => {
    const stored = await existingPlayer(ports.profiles, actor.appId, profileId);
    const pk = partitionKey(actor.appId, profileId);
    let from: Record<string, string> | undefined =
      query.cursor === undefined ? undefined : { pk, ...Object.fromEntries(decode(query.cursor, 2).map((v, i) => [cursorKeys[i], v])) };
    const limit = pageSize(query.limit);
    const only = query.event === undefined ? undefined : { event: query.event };
    const deleted = stored.deleted;
    const kept: TimelineEntry[] = [];
    let next: Record<string, string> | undefined;
    const readSize = only || deleted ? playerLimits.filteredReadItems : limit;
    for (let queries = 0; queries < playerLimits.filteredReadQueries; queries++) {
      const page = await ports.timeline.page(pk, readSize, from, only);
      let full = false;
      for (const [i, entry] of page.entries.entries()) {
        if (deleted && isBefore(entry, deleted.shard, deleted.seq, deleted.at)) continue;
        kept.push(entry);
        if (kept.length === limit) {
          full = true;
          next = i < page.entries.length - 1 || page.next !== undefined ? keyOf(entry) : undefined;
          break;
        }
      }
      if (full) break;
      from = page.next;
      next = page.next;
      if (page.next === undefined) break;
    }
    return {
      events: kept.map((entry) => ({
        event: entry.event,
        urm_date_time: entry.urm_date_time,
        urm_insert_id: entry.insert_id,
        received_at: entry.received_at,
        attributes: JSON.parse(entry.attrs) as Record<string, unknown>,
        ...(entry.merged_from ? { merged_from: entry.merged_from } : {}),
      })),
      next_cursor: next === undefined ? null : encode(cursorKeys.map((name) => next[name]!)),
    };
  };
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
