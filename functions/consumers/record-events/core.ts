/**
 * The event consumer: puts each event on its profile's timeline. The events
 * of one profile in a batch are packed into page items of up to one write
 * unit (functions/domain/timeline-pages.ts); an event whose insert id
 * the profile's timeline already holds around its time is not written again,
 * so a redelivered or re-sent event leaves the first one stored as it was
 * (as for profile records: the first record with an insert id wins). An event
 * from before the profile's last delete (a late redelivery) is dropped: a
 * delete is never undone.
 */
import { partitionKey } from '../../domain/stream-record';
import { eventFields, isBefore, timeKey, type ProfileStore, type RejectionSink, type TimelineEntry, type TimelineStore } from '../../domain/timeline';
import { rejectionOf } from '../../domain/rejections';
import type { StreamItem } from '../../stream/kinesis-batch';

export interface RecordEventsDeps {
  profiles: Pick<ProfileStore, 'getMany'>;
  timeline: Pick<TimelineStore, 'writeNew'>;
  rejections: RejectionSink;
  now: () => Date;
}

/**
 * A page holds one such event alone, well below DynamoDB's 400 KB per item
 * (a page a delete's sweep or a merge rewrites may gather a few). Larger
 * events are rejected, not retried forever.
 */
export const MAX_ENTRY_BYTES = 180_000;

export function toTimelineEntry(item: StreamItem): TimelineEntry {
  const { record, received_at } = item.envelope;
  const attributes = Object.fromEntries(Object.entries(record).filter(([name]) => !eventFields.has(name)));
  return {
    pk: partitionKey(record.app_id, record.profile_id),
    insert_id: record.urm_insert_id,
    ts: timeKey(record.urm_date_time as string, record.urm_insert_id),
    event: record.event as string,
    urm_date_time: record.urm_date_time as string,
    received_at,
    shard: item.shardId,
    seq: item.sequenceNumber,
    attrs: JSON.stringify(attributes),
  };
}

export function recordEvents(deps: RecordEventsDeps) {
  return async (items: StreamItem[]): Promise<{ written: number; duplicates: number; dropped: number; rejected: number }> => {
    const entries = items.map((item) => ({ item, entry: toTimelineEntry(item) }));
    const profiles = await deps.profiles.getMany([...new Set(entries.map(({ entry }) => entry.pk))], ['pk', 'deleted'], true);
    const kept: TimelineEntry[] = [];
    let dropped = 0;
    let rejected = 0;
    for (const { item, entry } of entries) {
      const deleted = profiles.get(entry.pk)?.deleted;
      if (deleted && isBefore(entry, deleted.shard, deleted.seq, deleted.at)) {
        dropped++;
        continue;
      }
      if (Buffer.byteLength(JSON.stringify(entry)) > MAX_ENTRY_BYTES) {
        rejected++;
        await deps.rejections.put(rejectionOf(item, `the event is larger than the ${MAX_ENTRY_BYTES}-byte limit of a timeline entry`, deps.now()));
        continue;
      }
      kept.push(entry);
    }
    // The first of each key in the batch is the one written: a later one is not sent to race it.
    const byKey = new Map<string, TimelineEntry>();
    for (const entry of kept) {
      const key = `${entry.pk}\u0000${entry.insert_id}`;
      if (!byKey.has(key)) byKey.set(key, entry);
    }
    const unique = [...byKey.values()];
    const written = await deps.timeline.writeNew(unique);
    return { written, duplicates: kept.length - written, dropped, rejected };
  };
}
