/** Kinesis events as Lambda's event source mapping delivers them, for invoking consumers directly. */
import type { KinesisStreamEvent, KinesisStreamRecord } from 'aws-lambda';
import type { StreamRecordKind } from '../../functions/domain/stream-record';

export interface EventRecordInput {
  kind: StreamRecordKind;
  record: Record<string, unknown>;
  sequenceNumber: string;
  shardId?: string;
  receivedAt?: string;
}

/** One stream record as Lambda delivers it: base64 of the envelope the ingestion functions write. */
export function streamRecord({
  kind,
  record,
  sequenceNumber,
  shardId = 'shardId-000000000000',
  receivedAt = new Date().toISOString(),
}: EventRecordInput): KinesisStreamRecord {
  return {
    kinesis: {
      kinesisSchemaVersion: '1.0',
      partitionKey: `${record.app_id}#${record.profile_id}`,
      sequenceNumber,
      data: Buffer.from(JSON.stringify({ v: 1, kind, received_at: receivedAt, record }), 'utf8').toString('base64'),
      approximateArrivalTimestamp: Date.parse(receivedAt) / 1000,
    },
    eventSource: 'aws:kinesis',
    eventVersion: '1.0',
    eventID: `${shardId}:${sequenceNumber}`,
    eventName: 'aws:kinesis:record',
    invokeIdentityArn: 'arn:aws:iam::000000000000:role/test',
    awsRegion: 'us-east-1',
    eventSourceARN: 'arn:aws:kinesis:us-east-1:000000000000:stream/urm-ingest',
  };
}

export function kinesisEvent(records: EventRecordInput[]): KinesisStreamEvent {
  return { Records: records.map(streamRecord) };
}

/** Increasing 56-digit sequence numbers, like Kinesis's. */
export function sequenceNumbers(count: number, start = 1n): string[] {
  return Array.from({ length: count }, (_, i) => (49_680_000_000_000_000_000_000_000_000_000_000_000_000_000_000_000n + start + BigInt(i)).toString());
}
