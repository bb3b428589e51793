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
  /** When the stream took the record (ISO 8601): the same on every delivery, so its rejection's id is too. */
  arrivedAt: string;
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
      const arrivedAt = new Date(record.kinesis.approximateArrivalTimestamp * 1000).toISOString();
      undecodable.push({ sequenceNumber, shardId, arrivedAt, reason: (error as Error).message });
    }
  }
  return { items, undecodable };
}
