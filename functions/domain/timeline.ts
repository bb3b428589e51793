/** Timeline entries and the ports the consumers and the read API use. */
import type { StreamRecordKind } from './stream-record';
import type { PlayerCountChange } from './figures';
import { compareSequence, type StoredProfile } from './profile-state';

export interface TimelineEntry {
  /** app_id#profile_id */
  pk: string;
  insert_id: string;
  /** Time key: UTC time, then insert id; orders the timeline (functions/domain/timeline-pages.ts). */
  ts: string;
  event: string;
  urm_date_time: string;
  received_at: string;
  /** Where the entry came from in the stream, to tell which entries a delete covers. */
  shard: string;
  seq: string;
  /** Custom attributes as JSON. */
  attrs: string;
  /** Set on entries copied from another profile by urm_merge. */
  merged_from?: string;
  /** Set by a walk: the key of the page item holding the entry, where a removal goes straight to. */
  page?: string;
}

/** The fields of an event record that are not its custom attributes. */
export const eventFields = new Set(['app_id', 'profile_id', 'event', 'urm_date_time', 'urm_insert_id', 'urm_ip']);

/** Whether a timeline entry came before a point of the stream (same shard: by sequence number; else by time). */
export function isBefore(entry: Pick<TimelineEntry, 'shard' | 'seq' | 'received_at'>, shard: string, seq: string, receivedAt: string): boolean {
  return entry.shard === shard ? compareSequence(entry.seq, seq) < 0 : entry.received_at <= receivedAt;
}

export function timeKey(urmDateTime: string, insertId: string): string {
  return `${new Date(urmDateTime).toISOString()}#${insertId}`;
}

export interface Rejection {
  app_id: string;
  profile_id: string;
  urm_insert_id: string;
  kind: StreamRecordKind;
  shard: string;
  seq: string;
  reason: string;
  /** The record as JSON, cut to fit an item. */
  record: string;
  record_truncated: boolean;
  /** When the service accepted the record: with shard and seq, the rejection's stable id. */
  received_at: string;
  rejected_at: string;
}

export interface RejectionSink {
  /** Idempotent: the same stream record rejected twice is kept once. */
  put(rejection: Rejection): Promise<void>;
  /** Takes back rejections that a retry on a newer state did not confirm. */
  remove(rejections: Rejection[]): Promise<void>;
}

/** Where an operator reads rejections back (the admin command line, the back office). */
export interface RejectionLog extends RejectionSink {
  /** Newest first. */
  list(appId: string, limit: number): Promise<Rejection[]>;
  /** A page of them, newest first: after the rejection `after` names (a page's `next`), when given. */
  page(appId: string, limit: number, after?: string): Promise<RejectionPage>;
  /** One player's, newest first, among at most `readBudget` of the application's newest. */
  listForProfile(appId: string, profileId: string, readBudget: number): Promise<ProfileRejections>;
}

export interface RejectionPage {
  rejections: Rejection[];
  /** Where the next page starts; undefined on the last page. */
  next?: string;
}

export interface ProfileRejections {
  rejections: Rejection[];
  /** False when the budget ran out before the application's oldest kept rejection. */
  complete: boolean;
}

export interface ProfileStore {
  get(pk: string, consistent: boolean): Promise<StoredProfile | undefined>;
  /** Profiles by key (merge sources, deletion marks), in as few calls as possible; `fields` limits what is read. */
  getMany(pks: string[], fields?: (keyof StoredProfile)[], consistent?: boolean): Promise<Map<string, StoredProfile>>;
  /**
   * Writes the profile if its version is still `expectedVersion` (undefined: it must not exist); false on conflict.
   * With `count`, the application's players counter (and registrations) move in the same transaction, or not at all.
   */
  put(profile: StoredProfile, expectedVersion: number | undefined, count?: PlayerCountChange): Promise<boolean>;
}

export interface TimelinePage {
  entries: TimelineEntry[];
  /** Where the next page starts, if there is one. */
  next?: Record<string, string>;
}

export interface TimelineStore {
  /**
   * Stores the entries whose profile and insert id are not on the timeline
   * yet; one already there stays as first stored. Answers how many were new.
   * "Already there" is looked up among the entries within a minute
   * (RESEND_DRIFT_MS, timeline-pages.ts) of the new one's urm_date_time.
   * Any other failure throws, after the writes in flight have settled.
   */
  writeNew(entries: TimelineEntry[]): Promise<number>;
  /** Newest first by urm_date_time. */
  page(pk: string, limit: number, start?: Record<string, string>, only?: { event: string }): Promise<TimelinePage>;
  /** The profile's oldest entry (within a minute: the pages read are bounded), or undefined when it has none. */
  oldest(pk: string): Promise<TimelineEntry | undefined>;
  /** About `limit` entries of a profile in storage order (not strictly by time), from `start`: a walk in bounded steps. */
  walk(pk: string, limit: number, start?: Record<string, string>): Promise<TimelinePage>;
  /** Removes entries a walk gave (by their page); other entries are looked up around their time. */
  remove(entries: Pick<TimelineEntry, 'pk' | 'insert_id' | 'ts' | 'page'>[]): Promise<void>;
}
