/**
 * A profile's timeline, newest first, a page at a time behind an opaque cursor.
 * A long timeline is removed after a delete in steps (functions/consumers/apply-profiles):
 * meanwhile the entries the delete covers are still stored, and are left out here.
 */
import { Forbidden, ValidationError } from '../../domain/errors';
import { partitionKey } from '../../domain/stream-record';
import { isBefore, type ProfileStore, type TimelineEntry, type TimelineStore } from '../../domain/timeline';
import type { EventsQuery, TimelineView } from './schema';

export const DEFAULT_LIMIT = 50;

const cursorKeys = ['pk', 'insert_id', 'ts'] as const;

export function encodeCursor(key: Record<string, string>): string {
  return Buffer.from(JSON.stringify(cursorKeys.map((name) => key[name]))).toString('base64url');
}

/** The page start a cursor stands for; it must be a cursor of this very timeline. */
export function decodeCursor(cursor: string, pk: string): Record<string, string> {
  const invalid = () => new ValidationError(['cursor is not one this timeline gave'], 'request is invalid');
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(values) || values.length !== 3 || values.some((v) => typeof v !== 'string') || values[0] !== pk) {
    throw invalid();
  }
  return Object.fromEntries(cursorKeys.map((name, i) => [name, values[i] as string]));
}

export interface ListProfileEventsPorts {
  timeline: Pick<TimelineStore, 'page'>;
  profiles: Pick<ProfileStore, 'getMany'>;
}

/** Entries read per query while a delete's entries may still be there, and queries per request: a request's work stays bounded. */
export const FILTERED_READ_ITEMS = 500;
export const FILTERED_READ_QUERIES = 4;

export function listProfileEvents(ports: ListProfileEventsPorts) {
  return async (callerAppId: string, query: EventsQuery, profileId: string): Promise<TimelineView> => {
    if (query.app_id !== callerAppId) throw new Forbidden();
    const pk = partitionKey(query.app_id, profileId);
    const start = query.cursor === undefined ? undefined : decodeCursor(query.cursor, pk);
    const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
    // Consistent: once a delete is applied, no read shows what it covers.
    const deleted = (await ports.profiles.getMany([pk], ['pk', 'deleted'], true)).get(pk)?.deleted;
    const page = deleted === undefined ? await ports.timeline.page(pk, limit, start) : await pageAfterDelete(ports.timeline, pk, limit, start, deleted);
    return {
      app_id: query.app_id,
      profile_id: profileId,
      events: page.entries.map((entry) => ({
        event: entry.event,
        urm_date_time: entry.urm_date_time,
        urm_insert_id: entry.insert_id,
        received_at: entry.received_at,
        attributes: JSON.parse(entry.attrs) as Record<string, unknown>,
        ...(entry.merged_from ? { merged_from: entry.merged_from } : {}),
      })),
      next_cursor: page.next ? encodeCursor(page.next) : null,
    };
  };
}

/**
 * A page without the entries the delete covers. It reads ahead in larger
 * queries, and goes on from the last entry it kept; after a bounded number of
 * queries it answers what it has (maybe fewer than `limit`, maybe none) with a
 * cursor, so a page is never empty only because nothing is left.
 */
async function pageAfterDelete(
  timeline: Pick<TimelineStore, 'page'>,
  pk: string,
  limit: number,
  start: Record<string, string> | undefined,
  deleted: { shard: string; seq: string; at: string },
): Promise<{ entries: TimelineEntry[]; next?: Record<string, string> }> {
  const kept: TimelineEntry[] = [];
  let from = start;
  for (let queries = 0; queries < FILTERED_READ_QUERIES; queries++) {
    const page = await timeline.page(pk, FILTERED_READ_ITEMS, from);
    for (const [i, entry] of page.entries.entries()) {
      if (isBefore(entry, deleted.shard, deleted.seq, deleted.at)) continue;
      kept.push(entry);
      if (kept.length === limit) {
        const more = i < page.entries.length - 1 || page.next !== undefined;
        return { entries: kept, next: more ? keyOf(entry) : undefined };
      }
    }
    if (page.next === undefined) return { entries: kept };
    from = page.next;
  }
  return { entries: kept, next: from };
}

/** Where a page after an entry starts: the timeline store goes on from its time key. */
const keyOf = (entry: TimelineEntry): Record<string, string> => ({ pk: entry.pk, insert_id: entry.insert_id, ts: entry.ts });
