/**
 * In-memory implementations of the ports of functions/domain/timeline.ts (the
 * profile store, the timeline store, the rejection log), with the contracts
 * of the DynamoDB adapters: a versioned write that fails on a conflict and on
 * an item over DynamoDB's 400 KB, a timeline that keeps the first entry of an
 * insert id, rejections kept once per stream record. Each records what it was
 * asked, and lets a test play another writer or a failure.
 */
import { RESEND_DRIFT_MS } from '../../functions/domain/timeline-pages';
import type { StoredProfile } from '../../functions/domain/profile-state';
import type { ProfileStore, Rejection, RejectionSink, TimelineEntry, TimelinePage, TimelineStore } from '../../functions/domain/timeline';

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

const clone = <T>(value: T): T => structuredClone(value);

export interface ProfileRead {
  pks: string[];
  consistent: boolean;
  fields?: (keyof StoredProfile)[];
  /** `getMany` (merge sources, a batch's first read) or `get` (one profile). */
  many: boolean;
}

export class MemoryProfileStore implements ProfileStore {
  readonly profiles = new Map<string, StoredProfile>();
  readonly reads: ProfileRead[] = [];
  readonly puts: { pk: string; expectedVersion: number | undefined }[] = [];
  /** Profiles whose write fails with this error, as a throttled or unreachable table does. */
  readonly failing = new Map<string, Error>();
  /** When set, runs inside the next write, before its condition is checked: another writer getting there first. */
  beforeNextPut: (() => void) | undefined;
  /** When set, every batch read fails with it. */
  failGetMany: Error | undefined;

  constructor(profiles: StoredProfile[] = []) {
    for (const profile of profiles) this.profiles.set(profile.pk, clone(profile));
  }

  async get(pk: string, consistent: boolean): Promise<StoredProfile | undefined> {
    this.reads.push({ pks: [pk], consistent, many: false });
    return clone(this.profiles.get(pk));
  }

  async getMany(pks: string[], fields?: (keyof StoredProfile)[], consistent = false): Promise<Map<string, StoredProfile>> {
    this.reads.push({ pks, consistent, many: true, ...(fields ? { fields } : {}) });
    if (this.failGetMany) throw this.failGetMany;
    const found = new Map<string, StoredProfile>();
    for (const pk of pks) {
      const profile = this.profiles.get(pk);
      if (!profile) continue;
      // A projection reads only the fields asked for, as the adapter's does.
      const read: Partial<StoredProfile> = fields ? Object.fromEntries(fields.filter((f) => f in profile).map((f) => [f, clone(profile[f])])) : clone(profile);
      found.set(pk, read as StoredProfile);
    }
    return found;
  }

  async put(profile: StoredProfile, expectedVersion: number | undefined): Promise<boolean> {
    this.puts.push({ pk: profile.pk, expectedVersion });
    const hook = this.beforeNextPut;
    this.beforeNextPut = undefined;
    hook?.();
    const failure = this.failing.get(profile.pk);
    if (failure) throw failure;
    const current = this.profiles.get(profile.pk);
    if (expectedVersion === undefined ? current !== undefined : current?.version !== expectedVersion) return false;
    if (dynamoItemBytes(profile) > MAX_ITEM_BYTES) {
      throw Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException' });
    }
    this.profiles.set(profile.pk, clone(profile));
    return true;
  }

  /** The stored profile of `app_1#<profileId>`-style keys, or undefined. */
  stored(pk: string): StoredProfile | undefined {
    return clone(this.profiles.get(pk));
  }
}

/** Timeline entries by profile, in time-key order; walks and pages go by time key. */
export class MemoryTimelineStore implements TimelineStore {
  private readonly byProfile = new Map<string, TimelineEntry[]>();
  /** Profiles whose list took entries since it was last sorted. */
  private readonly unsorted = new Set<string>();
  /** The times of each profile's insert ids, for the look-up of a re-sent entry. */
  private readonly times = new Map<string, Map<string, number[]>>();
  /** Entries walked and entries written or removed, since the last `resetWork`: what an invocation's budget bounds. */
  readonly work = { read: 0, written: 0 };
  readonly walks: { pk: string; limit: number }[] = [];
  readonly writes: TimelineEntry[][] = [];
  readonly removals: Pick<TimelineEntry, 'pk' | 'insert_id'>[][] = [];
  /** When set, asked before each write: the error it answers fails that write, and nothing of it is stored. */
  writeFault: ((write: number) => Error | undefined) | undefined;

  seed(entries: TimelineEntry[]): void {
    for (const entry of entries) this.insert(clone(entry));
  }

  /** Every entry of a profile (of every profile without one), in time-key order. */
  entries(pk?: string): TimelineEntry[] {
    const pks = pk === undefined ? [...this.byProfile.keys()] : [pk];
    return clone(pks.flatMap((key) => this.sorted(key)));
  }

  entry(pk: string, insertId: string): TimelineEntry | undefined {
    return this.entries(pk).find((entry) => entry.insert_id === insertId);
  }

  resetWork(): void {
    this.work.read = 0;
    this.work.written = 0;
  }

  async writeNew(entries: TimelineEntry[]): Promise<number> {
    this.writes.push(clone(entries));
    const fault = this.writeFault?.(this.writes.length);
    if (fault) throw fault;
    let stored = 0;
    for (const entry of entries) {
      const time = Date.parse(entry.urm_date_time);
      const there = (this.times.get(entry.pk)?.get(entry.insert_id) ?? []).some((other) => Math.abs(other - time) <= RESEND_DRIFT_MS);
      if (there) continue;
      this.insert(clone(entry));
      this.work.written++;
      stored++;
    }
    return stored;
  }

  async page(pk: string, limit: number, start?: Record<string, string>, only?: { event: string }): Promise<TimelinePage> {
    const newestFirst = [...this.sorted(pk)].reverse();
    const rest = start === undefined ? newestFirst : newestFirst.filter((entry) => entry.ts < start.ts);
    const read = rest.slice(0, limit);
    const entries = read.filter((entry) => only === undefined || entry.event === only.event);
    return { entries: clone(entries), ...(read.length < rest.length ? { next: { ts: read[read.length - 1].ts } } : {}) };
  }

  async walk(pk: string, limit: number, start?: Record<string, string>): Promise<TimelinePage> {
    this.walks.push({ pk, limit });
    const all = this.sorted(pk);
    const rest = start === undefined ? all : all.filter((entry) => entry.ts > start.ts);
    const entries = rest.slice(0, limit);
    this.work.read += entries.length;
    return { entries: clone(entries), ...(entries.length < rest.length ? { next: { ts: entries[entries.length - 1].ts } } : {}) };
  }

  async remove(entries: Pick<TimelineEntry, 'pk' | 'insert_id' | 'ts' | 'page'>[]): Promise<void> {
    this.removals.push(entries.map(({ pk, insert_id }) => ({ pk, insert_id })));
    for (const pk of new Set(entries.map((entry) => entry.pk))) {
      const gone = new Set(entries.filter((entry) => entry.pk === pk).map((entry) => `${entry.ts}\u0000${entry.insert_id}`));
      const before = this.byProfile.get(pk) ?? [];
      const kept = before.filter((entry) => !gone.has(`${entry.ts}\u0000${entry.insert_id}`));
      this.work.written += before.length - kept.length;
      this.byProfile.set(pk, kept);
      const times = new Map<string, number[]>();
      for (const entry of kept) times.set(entry.insert_id, [...(times.get(entry.insert_id) ?? []), Date.parse(entry.urm_date_time)]);
      this.times.set(pk, times);
    }
  }

  private insert(entry: TimelineEntry): void {
    const { page: _page, ...stored } = entry;
    const list = this.byProfile.get(entry.pk) ?? [];
    list.push(stored);
    this.byProfile.set(entry.pk, list);
    this.unsorted.add(entry.pk);
    const times = this.times.get(entry.pk) ?? new Map<string, number[]>();
    times.set(entry.insert_id, [...(times.get(entry.insert_id) ?? []), Date.parse(entry.urm_date_time)]);
    this.times.set(entry.pk, times);
  }

  private sorted(pk: string): TimelineEntry[] {
    const list = this.byProfile.get(pk) ?? [];
    if (this.unsorted.delete(pk)) list.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
    return list;
  }
}

/** Rejections kept as the rejections table keys them: once per application and stream record. */
export class MemoryRejectionLog implements RejectionSink {
  private readonly rows = new Map<string, Rejection>();
  readonly puts: Rejection[] = [];
  readonly removes: Rejection[] = [];

  async put(rejection: Rejection): Promise<void> {
    this.puts.push(clone(rejection));
    this.rows.set(MemoryRejectionLog.key(rejection), clone(rejection));
  }

  async remove(rejections: Rejection[]): Promise<void> {
    for (const rejection of rejections) {
      this.removes.push(clone(rejection));
      this.rows.delete(MemoryRejectionLog.key(rejection));
    }
  }

  /** The rows kept, in the order first put. */
  kept(): Rejection[] {
    return clone([...this.rows.values()]);
  }

  private static key(rejection: Rejection): string {
    return `${rejection.app_id}\u0000${rejection.received_at}#${rejection.shard}#${rejection.seq}`;
  }
}
