/** In-memory player ports, with the DynamoDB adapters' contracts: profiles and their by-app index, the timeline, the rejection log. */
import type { PlayerDirectory } from '../../functions/back-office/players';
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
} from '../../functions/domain/timeline';

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

/** The profiles table and its by-app index, in memory. */
export class MemoryProfiles implements PlayerDirectory, Pick<ProfileStore, 'get' | 'getMany'> {
  readonly items = new Map<string, StoredProfile>();
  constructor(...profiles: StoredProfile[]) {
    for (const p of profiles) this.items.set(p.pk, p);
  }
  add(...profiles: StoredProfile[]): void {
    for (const p of profiles) this.items.set(p.pk, p);
  }
  async get(pk: string) {
    return this.items.get(pk);
  }
  async getMany(pks: string[]) {
    return new Map(pks.flatMap((pk) => (this.items.has(pk) ? [[pk, this.items.get(pk)!] as const] : [])));
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

/** The timeline's by-time index in memory: newest first, `limit` counting entries read before the event filter, as DynamoDB does. */
export class MemoryTimeline {
  reads = 0;
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

  async page(pk: string, limit: number, start?: Record<string, string>, only?: { event: string }): Promise<TimelinePage> {
    this.reads++;
    const all = this.entries.filter((e) => e.pk === pk).sort((a, b) => (a.ts < b.ts ? 1 : -1));
    const from = start === undefined ? 0 : all.findIndex((e) => e.ts === start.ts) + 1;
    const read = all.slice(from, from + limit);
    const last = read.at(-1);
    const next = from + limit < all.length && last ? { pk: last.pk, insert_id: last.insert_id, ts: last.ts } : undefined;
    return { entries: read.filter((e) => !only || e.event === only.event), next };
  }
}

/** The rejection log in memory: by application, newest first, a page's `next` the last rejection's id (as the table's sort key). */
export class MemoryRejectionLog implements RejectionLog {
  readonly rejections: Rejection[] = [];
  /** Every page asked for, to show what a listing reads. */
  readonly pages: { appId: string; limit: number; after?: string }[] = [];

  private static id(rejection: Rejection): string {
    return `${rejection.received_at}#${rejection.shard}#${rejection.seq}`;
  }

  private newestFirst(appId: string): Rejection[] {
    return this.rejections.filter((r) => r.app_id === appId).sort((a, b) => MemoryRejectionLog.id(b).localeCompare(MemoryRejectionLog.id(a)));
  }

  async put(rejection: Rejection) {
    if (!this.rejections.some((r) => r.app_id === rejection.app_id && MemoryRejectionLog.id(r) === MemoryRejectionLog.id(rejection))) {
      this.rejections.push({ ...rejection });
    }
  }

  async remove(rejections: Rejection[]) {
    for (const gone of rejections) {
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
