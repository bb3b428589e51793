/**
 * The shape every stream consumer shares: decode the batch, keep what cannot
 * be decoded where an operator finds it (it would fail forever), run the
 * consumer on the rest, and answer Lambda's partial batch response.
 */
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import type { RejectionSink } from '../domain/timeline';
import { logger } from '../runtime/logger';
import { readBatch, type StreamItem } from './kinesis-batch';

export function consumeBatch(rejections: RejectionSink, consume: (items: StreamItem[]) => Promise<string[]>) {
  return async (event: KinesisStreamEvent): Promise<KinesisStreamBatchResponse> => {
    const { items, undecodable } = readBatch(event);
    const now = new Date().toISOString();
    for (const bad of undecodable) {
      logger.error('Undecodable stream record kept in the rejections table', { sequence_number: bad.sequenceNumber, reason: bad.reason });
      await rejections.put({
        app_id: '(undecodable)',
        profile_id: '',
        urm_insert_id: '',
        kind: 'event',
        shard: bad.shardId,
        seq: bad.sequenceNumber,
        reason: bad.reason,
        record: '',
        record_truncated: false,
        received_at: bad.arrivedAt,
        rejected_at: now,
      });
    }
    const failed = items.length > 0 ? await consume(items) : [];
    return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
  };
}
