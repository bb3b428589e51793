/**
 * In-memory player ports, with the DynamoDB adapters' contracts: profiles
 * (versioned writes that fail on a conflict, and on an item over DynamoDB's
 * 400 KB) and their by-app index, the timeline (the first entry of an insert
 * id kept), the rejection log. Each records what it was asked, and lets a
 * test play another writer or a failure.
 */
import type { PlayerDirectory } from '../../functions/back-office/players';
import { registrationDaySk, type PlayerCountChange, type PlayerCountReader, type PlayerCounts } from '../../functions/domain/figures';
import type { StoredProfile } from '../../functions/domain/profile-state';
import { partitionKey } from '../../functions/domain/stream-record';
import {
  timeKey,
  type ProfileRejections,
  type ProfileStore,
  type Rejection,
  type RejectionLog,
  type RejectionPage,
  type TimelineEntry,
  type TimelinePage,
  type TimelineStore,
} from '../../functions/domain/timeline';
import { RESEND_DRIFT_MS } from '../../functions/domain/timeline-pages';

const clone = <T>(value: T): T => structuredClone(value);

/** DynamoDB's item size: UTF-8 bytes of names and strings, as the service counts them (close enough for limits). */
export function dynamoItemBytes(item: object): number {
  const size = (value: unknown): number => {
    if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
    if (typeof value === 'number') return 21;
    if (Array.isArray(value)) return 3 + value.reduce((n: number, v) => n + 1 + size(v), 0);
    if (value !== null && typeof value === 'object') return 3 + dynamoItemBytes(value) + Object.keys(value).length;
    return 1;
  };
  return Object.entries(item).reduce((n, [name, value]) => n + Buffer.byteLength(name, 'utf8') + size(value), 0);
}

export const MAX_ITEM_BYTES = 400 * 1024;

/** A stored profile of `attrs`, as the consumer leaves one. */
export function storedProfile(appId: string, profileId: string, attrs: Record<string, unknown> = {}, extra: Partial<StoredProfile> = {}): StoredProfile {
  return {
    pk: partitionKey(appId, profileId),
    app_id: appId,
    profile_id: profileId,
    attrs: JSON.stringify(attrs),
    exists: true,
    version: 1,
    updated_at: '2026-11-20T10:00:00.000Z',
    applied: {},
    recent: {},
    ...extra,
  };
}

export interface ProfileRead {
  pks: string[];
  consistent: boolean;
  fields?: (keyof StoredProfile)[];
  /** `getMany` (merge sources, a batch's first read, deletion marks) or `get` (one profile). */
  many: boolean;
}

/** The profiles table and its by-app index, in memory; and the `figures` table's player counts the profile writes move. */
export class MemoryProfiles implements PlayerDirectory, ProfileStore, PlayerCountReader {
  readonly items = new Map<string, StoredProfile>();
  /** Per application, as the `figures` table keeps them: moved only by a write that takes, as in its transaction. */
  readonly counts = new Map<string, PlayerCounts>();
  /** The counter moves of the writes that took. */
  readonly countMoves: PlayerCountChange[] = [];
  readonly reads: ProfileRead[] = [];
  readonly puts: { pk: string; expectedVersion: number | undefined }[] = [];
  /** Profiles whose write fails with this error, as a throttled or unreachable table does. */
  readonly failing = new Map<string, Error>();
  /** When set, runs inside the next write, before its condition is checked: another writer getting there first. */
  beforeNextPut: (() => void) | undefined;
  /** When set, every batch read fails with it. */
  failGetMany: Error | undefined;

  constructor(...profiles: StoredProfile[]) {
    for (const p of profiles) this.items.set(p.pk, p);
  }
  add(...profiles: StoredProfile[]): void {
    for (const p of profiles) this.items.set(p.pk, p);
  }
  /** The profile as stored, or undefined. */
  stored(pk: string): StoredProfile | undefined {
    return clone(this.items.get(pk));
  }
  // Reads answer copies, as the table does: what a caller changes is not stored until it is written.
  async get(pk: string, consistent = false) {
    this.reads.push({ pks: [pk], consistent, many: false });
    return clone(this.items.get(pk));
  }
  async getMany(pks: string[], fields?: (keyof StoredProfile)[], consistent = false) {
    this.reads.push({ pks, consistent, many: true, ...(fields ? { fields } : {}) });
    if (this.failGetMany) throw this.failGetMany;
    const found = new Map<string, StoredProfile>();
    for (const pk of pks) {
      const profile = this.items.get(pk);
      if (!profile) continue;
      // A projection reads only the fields asked for, as the adapter's does.
      const read: Partial<StoredProfile> = fields ? Object.fromEntries(fields.filter((f) => f in profile).map((f) => [f, clone(profile[f])])) : clone(profile);
      found.set(pk, read as StoredProfile);
    }
    return found;
  }
  async put(profile: StoredProfile, expectedVersion: number | undefined, count?: PlayerCountChange) {
    this.puts.push({ pk: profile.pk, expectedVersion });
    const hook = this.beforeNextPut;
    this.beforeNextPut = undefined;
    hook?.();
    const failure = this.failing.get(profile.pk);
    if (failure) throw failure;
    const current = this.items.get(profile.pk);
    if (expectedVersion === undefined ? current !== undefined : current?.version !== expectedVersion) return false;
    if (dynamoItemBytes(profile) > MAX_ITEM_BYTES) {
      throw Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException' });
    }
    this.items.set(profile.pk, clone(profile));
    if (count) {
      this.countMoves.push(clone(count));
      const counts = this.counts.get(count.app_id) ?? { players: 0, registrations: {} };
      counts.players += count.players;
      if (count.registered_on) counts.registrations[count.registered_on] = (counts.registrations[count.registered_on] ?? 0) + 1;
      this.counts.set(count.app_id, counts);
    }
    return true;
  }
  async players(appId: string): Promise<number> {
    return Math.max(0, this.counts.get(appId)?.players ?? 0);
  }
  async playerCounts(appId: string, from: string): Promise<PlayerCounts> {
    const counts = this.counts.get(appId) ?? { players: 0, registrations: {} };
    // The same range as the adapter's Query: days from `from` on.
    const registrations = Object.fromEntries(Object.entries(counts.registrations).filter(([day]) => registrationDaySk(day) >= registrationDaySk(from)));
    return { players: counts.players, registrations };
  }
  async page(appId: string, options: { prefix?: string; limit: number; after?: string }) {
    const ids = [...this.items.values()]
      .filter((p) => p.app_id === appId && p.profile_id.startsWith(options.prefix ?? '') && (options.after === undefined || p.profile_id > options.after))
      .map((p) => p.profile_id)
      .sort();
    const profileIds = ids.slice(0, options.limit);
    return { profileIds, ...(ids.length > options.limit ? { last: profileIds.at(-1)! } : {}) };
  }
}

/**
 * The timeline in memory: its by-time index newest first (`page`, `limit`
 * counting entries read before the event filter, as DynamoDB does), and what
 * the consumers do to it (`writeNew`, a `walk` in storage order, `remove`).
 */
export class MemoryTimeline implements TimelineStore {
  reads = 0;
  /** Entries walked, and entries written or removed, since the last `resetWork`: what an invocation's budget bounds. */
  readonly work = { read: 0, written: 0 };
  readonly walks: { pk: string; limit: number }[] = [];
  readonly writes: TimelineEntry[][] = [];
  readonly removals: Pick<TimelineEntry, 'pk' | 'insert_id'>[][] = [];
  /** When set, asked before each write: the error it answers fails that write, and nothing of it is stored. */
  writeFault: ((write: number) => Error | undefined) | undefined;

  constructor(readonly entries: TimelineEntry[] = []) {}

  /** An event of a player of `app_1` (unless `appId`), as the consumer stores it. */
  add(profileId: string, event: string, urmDateTime: string, attributes: Record<string, unknown>, appId = 'app_1'): void {
    const insertId = `${event}-${this.entries.length}`;
    this.entries.push({
      pk: partitionKey(appId, profileId),
      insert_id: insertId,
      ts: timeKey(urmDateTime, insertId),
      event,
      urm_date_time: urmDateTime,
      received_at: urmDateTime,
      shard: 'shardId-0',
      seq: '1',
      attrs: JSON.stringify(attributes),
    });
  }

  /** Entries stored as they are (copies), as the consumers would have left them. */
  seed(entries: TimelineEntry[]): void {
    for (const e of entries) this.entries.push(clone(e));
  }

  /** One profile's entries (every profile's without one), oldest first by time key. */
  of(pk?: string): TimelineEntry[] {
    return clone(this.entries.filter((e) => pk === undefined || e.pk === pk).sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0)));
  }

  entry(pk: string, insertId: string): TimelineEntry | undefined {
    return this.of(pk).find((e) => e.insert_id === insertId);
  }

  resetWork(): void {
    this.work.read = 0;
    this.work.written = 0;
  }

  async page(pk: string, limit: number, start?: Record<string, string>, only?: { event: string }): Promise<TimelinePage> {
    this.reads++;
    const all = this.entries.filter((e) => e.pk === pk).sort((a, b) => (a.ts < b.ts ? 1 : -1));
    // From the first entry older than the start's key, as DynamoDB's key range reads (a start may be any key, not an entry's).
    const after = start === undefined ? 0 : all.findIndex((e) => e.ts < start.ts);
    const from = after === -1 ? all.length : after;
    const read = all.slice(from, from + limit);
    const last = read.at(-1);
    const next = from + limit < all.length && last ? { pk: last.pk, insert_id: last.insert_id, ts: last.ts } : undefined;
    return { entries: read.filter((e) => !only || e.event === only.event), next };
  }

  async oldest(pk: string): Promise<TimelineEntry | undefined> {
    this.reads++;
    return this.of(pk)[0];
  }

  async writeNew(entries: TimelineEntry[]): Promise<number> {
    this.writes.push(clone(entries));
    const fault = this.writeFault?.(this.writes.length);
    if (fault) throw fault;
    // Insert id → times stored, per profile written to: a re-send within RESEND_DRIFT_MS of one is the same entry.
    const stored = new Map<string, number[]>();
    const pks = new Set(entries.map((e) => e.pk));
    const note = (e: TimelineEntry) => {
      const key = `${e.pk}\u0000${e.insert_id}`;
      stored.set(key, [...(stored.get(key) ?? []), Date.parse(e.urm_date_time)]);
    };
    for (const e of this.entries) if (pks.has(e.pk)) note(e);
    let added = 0;
    for (const entry of entries) {
      const time = Date.parse(entry.urm_date_time);
      if ((stored.get(`${entry.pk}\u0000${entry.insert_id}`) ?? []).some((other) => Math.abs(other - time) <= RESEND_DRIFT_MS)) continue;
      const { page: _page, ...kept } = clone(entry);
      this.entries.push(kept);
      note(kept);
      this.work.written++;
      added++;
    }
    return added;
  }

  async walk(pk: string, limit: number, start?: Record<string, string>): Promise<TimelinePage> {
    this.walks.push({ pk, limit });
    const rest = this.of(pk).filter((e) => start === undefined || e.ts > start.ts);
    const entries = rest.slice(0, limit);
    this.work.read += entries.length;
    return { entries, ...(entries.length < rest.length ? { next: { ts: entries[entries.length - 1].ts } } : {}) };
  }

  async remove(entries: Pick<TimelineEntry, 'pk' | 'insert_id' | 'ts' | 'page'>[]): Promise<void> {
    this.removals.push(entries.map(({ pk, insert_id }) => ({ pk, insert_id })));
    const gone = new Set(entries.map((e) => `${e.pk}\u0000${e.ts}\u0000${e.insert_id}`));
    const kept = this.entries.filter((e) => !gone.has(`${e.pk}\u0000${e.ts}\u0000${e.insert_id}`));
    this.work.written += this.entries.length - kept.length;
    this.entries.length = 0;
    for (const e of kept) this.entries.push(e);
  }
}

/** The rejection log in memory: by application, newest first, a page's `next` the last rejection's id (as the table's sort key). */
export class MemoryRejectionLog implements RejectionLog {
  /** The rows kept, in the order first put. */
  readonly rejections: Rejection[] = [];
  /** Every put and every removal asked for, in order (a row put twice is kept once). */
  readonly puts: Rejection[] = [];
  readonly removes: Rejection[] = [];
  /** Every page asked for, to show what a listing reads. */
  readonly pages: { appId: string; limit: number; after?: string }[] = [];

  private static id(rejection: Rejection): string {
    return `${rejection.received_at}#${rejection.shard}#${rejection.seq}`;
  }

  private newestFirst(appId: string): Rejection[] {
    return this.rejections.filter((r) => r.app_id === appId).sort((a, b) => MemoryRejectionLog.id(b).localeCompare(MemoryRejectionLog.id(a)));
  }

  async put(rejection: Rejection) {
    this.puts.push({ ...rejection });
    if (!this.rejections.some((r) => r.app_id === rejection.app_id && MemoryRejectionLog.id(r) === MemoryRejectionLog.id(rejection))) {
      this.rejections.push({ ...rejection });
    }
  }

  async remove(rejections: Rejection[]) {
    for (const gone of rejections) {
      this.removes.push({ ...gone });
      const index = this.rejections.findIndex((r) => r.app_id === gone.app_id && MemoryRejectionLog.id(r) === MemoryRejectionLog.id(gone));
      if (index >= 0) this.rejections.splice(index, 1);
    }
  }

  async list(appId: string, limit: number) {
    return (await this.page(appId, limit)).rejections;
  }

  async page(appId: string, limit: number, after?: string): Promise<RejectionPage> {
    this.pages.push({ appId, limit, ...(after === undefined ? {} : { after }) });
    const all = this.newestFirst(appId);
    const from = after === undefined ? 0 : all.findIndex((r) => MemoryRejectionLog.id(r) === after) + 1;
    const rejections = all.slice(from, from + limit);
    return from + limit < all.length ? { rejections, next: MemoryRejectionLog.id(rejections.at(-1)!) } : { rejections };
  }

  async listForProfile(appId: string, profileId: string, readBudget: number): Promise<ProfileRejections> {
    const all = this.newestFirst(appId);
    return { rejections: all.slice(0, readBudget).filter((r) => r.profile_id === profileId), complete: all.length <= readBudget };
  }
}
