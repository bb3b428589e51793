/**
 * A profile as stored, and the bookkeeping that makes applying records exactly
 * once without a transaction: the last applied sequence number per shard
 * (Kinesis redelivery) and the insert ids seen in the last 24 hours (client
 * re-sends), both kept on the profile item and written with it.
 */
import { createHash } from 'node:crypto';
import type { Attributes } from './attributes';

export interface StoredProfile {
  pk: string;
  app_id: string;
  profile_id: string;
  /** Attributes as JSON: any finite number fits, and the item's size is known before writing. */
  attrs: string;
  /** False after urm_delete_profile, until a later record creates the profile anew. */
  exists: boolean;
  version: number;
  updated_at: string;
  /** Last applied sequence number per shard. */
  applied: Record<string, string>;
  /** Hashes of recent insert ids by hour (epoch hour → concatenated 11-character hashes). */
  recent: Record<string, string>;
  /** Where the last delete happened in the stream: older records never undo it. */
  deleted?: { shard: string; seq: string; at: string };
}

export interface ProfileState {
  appId: string;
  profileId: string;
  attributes: Attributes;
  exists: boolean;
  updatedAt: string;
  applied: Record<string, string>;
  recent: Record<string, string>;
  deleted?: StoredProfile['deleted'];
}

/** How long a client's re-send with the same insert id is recognised. */
export const DEDUPE_WINDOW_HOURS = 24;
/**
 * Bound on remembered ids per profile (11 bytes each): with at most 300 KB of
 * attributes, the item stays below DynamoDB's 400 KB.
 */
export const MAX_REMEMBERED_IDS = 8_000;
const HASH_LENGTH = 11;

export function insertIdHash(insertId: string): string {
  return createHash('sha256').update(insertId, 'utf8').digest('base64url').slice(0, HASH_LENGTH);
}

export function emptyState(appId: string, profileId: string): ProfileState {
  return { appId, profileId, attributes: {}, exists: false, updatedAt: '', applied: {}, recent: {} };
}

export function stateOf(stored: StoredProfile | undefined, appId: string, profileId: string): ProfileState {
  if (!stored) return emptyState(appId, profileId);
  return {
    appId,
    profileId,
    attributes: stored.exists ? (JSON.parse(stored.attrs) as Attributes) : {},
    exists: stored.exists,
    updatedAt: stored.updated_at,
    applied: { ...stored.applied },
    recent: { ...stored.recent },
    deleted: stored.deleted,
  };
}

export function toStored(pk: string, state: ProfileState, version: number): StoredProfile {
  return {
    pk,
    app_id: state.appId,
    profile_id: state.profileId,
    attrs: JSON.stringify(state.attributes),
    exists: state.exists,
    version,
    updated_at: state.updatedAt,
    applied: state.applied,
    recent: state.recent,
    ...(state.deleted ? { deleted: state.deleted } : {}),
  };
}

/** Compares Kinesis sequence numbers (decimal strings of up to 128 bits). */
export function compareSequence(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const hourOf = (isoTime: string) => Math.floor(Date.parse(isoTime) / 3_600_000);

export type Seen = 'new' | 'redelivered' | 'resent';

/** The exactly-once bookkeeping an item keeps (a profile, a player's funnel ledger). */
export type SeenRecords = Pick<ProfileState, 'applied' | 'recent'>;

export function whetherSeen(state: SeenRecords, shardId: string, sequenceNumber: string, insertId: string): Seen {
  const last = state.applied[shardId];
  if (last !== undefined && compareSequence(sequenceNumber, last) <= 0) return 'redelivered';
  const hash = insertIdHash(insertId);
  for (const ids of Object.values(state.recent)) {
    for (let i = 0; i < ids.length; i += HASH_LENGTH) if (ids.startsWith(hash, i)) return 'resent';
  }
  return 'new';
}

/** Records that a stream record was handled (applied or rejected), so it is never handled again. */
export function remember(state: SeenRecords, shardId: string, sequenceNumber: string, insertId: string, receivedAt: string): void {
  state.applied[shardId] = sequenceNumber;
  const hour = String(hourOf(receivedAt));
  state.recent[hour] = (state.recent[hour] ?? '') + insertIdHash(insertId);
}

/** Drops ids older than the window (one extra hour, so the window is at least 24 hours), then the oldest beyond the bound. */
export function pruneRecent(state: SeenRecords, now: Date): void {
  const oldest = Math.floor(now.getTime() / 3_600_000) - DEDUPE_WINDOW_HOURS - 1;
  const hours = Object.keys(state.recent)
    .map(Number)
    .sort((a, b) => b - a);
  let kept = 0;
  for (const hour of hours) {
    const ids = state.recent[hour];
    const room = MAX_REMEMBERED_IDS - kept;
    if (hour < oldest || room <= 0) {
      delete state.recent[hour];
    } else if (ids.length / HASH_LENGTH > room) {
      // The newest ids of the hour are at its end.
      state.recent[hour] = ids.slice(ids.length - room * HASH_LENGTH);
      kept = MAX_REMEMBERED_IDS;
    } else {
      kept += ids.length / HASH_LENGTH;
    }
  }
}
