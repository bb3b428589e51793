/** A profile's timeline, newest first, a page at a time behind an opaque cursor. */
import { Forbidden, ValidationError } from '../shared/domain/errors';
import { partitionKey } from '../shared/domain/stream-record';
import type { TimelineStore } from '../shared/domain/timeline';
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

export function listProfileEvents(timeline: Pick<TimelineStore, 'page'>) {
  return async (callerAppId: string, query: EventsQuery, profileId: string): Promise<TimelineView> => {
    if (query.app_id !== callerAppId) throw new Forbidden();
    const pk = partitionKey(query.app_id, profileId);
    const start = query.cursor === undefined ? undefined : decodeCursor(query.cursor, pk);
    const page = await timeline.page(pk, query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit), start);
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
