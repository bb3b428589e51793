import type { StreamItem } from '../stream/kinesis-batch';
import type { Rejection } from './timeline';

/** Room for the record in a rejection item, well inside DynamoDB's 400 KB. */
const MAX_RECORD_CHARS = 300_000;

export function rejectionOf(item: StreamItem, reason: string, now: Date): Rejection {
  const { record, kind, received_at } = item.envelope;
  const json = JSON.stringify(record);
  return {
    app_id: record.app_id,
    profile_id: record.profile_id,
    urm_insert_id: record.urm_insert_id,
    kind,
    shard: item.shardId,
    seq: item.sequenceNumber,
    reason,
    record: json.slice(0, MAX_RECORD_CHARS),
    record_truncated: json.length > MAX_RECORD_CHARS,
    received_at,
    rejected_at: now.toISOString(),
  };
}
