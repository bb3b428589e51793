/** Reading a Kinesis batch as Lambda delivers it: envelopes in stream order, with their sequence numbers. */
import type { KinesisStreamEvent } from 'aws-lambda';
import { decodeEnvelope, type StreamEnvelope } from '../domain/stream-record';

export interface StreamItem {
  sequenceNumber: string;
  /** Shard of the record (from the event id), for per-shard bookkeeping. */
  shardId: string;
  envelope: StreamEnvelope;
}

export interface UndecodableItem {
  sequenceNumber: string;
  shardId: string;
  reason: string;
}

export function readBatch(event: KinesisStreamEvent): { items: StreamItem[]; undecodable: UndecodableItem[] } {
  const items: StreamItem[] = [];
  const undecodable: UndecodableItem[] = [];
  for (const record of event.Records) {
    const sequenceNumber = record.kinesis.sequenceNumber;
    const shardId = record.eventID.split(':')[0];
    try {
      items.push({ sequenceNumber, shardId, envelope: decodeEnvelope(record.kinesis.data) });
    } catch (error) {
      undecodable.push({ sequenceNumber, shardId, reason: (error as Error).message });
    }
  }
  return { items, undecodable };
}
