/**
 * What Lambda hands a Kinesis consumer: the event made from a batch of records, and the kind a record's
 * envelope carries (for the filter). The local stream poller and replay (back-office/replay.ts) both build it.
 */
import type { _Record } from '@aws-sdk/client-kinesis';
import type { KinesisStreamEvent, KinesisStreamRecord } from 'aws-lambda';

/** The envelope's `kind`, which the consumers' event-source filters match; undefined for a record that is not one. */
export function kindOf(record: _Record): string | undefined {
  try {
    return (JSON.parse(Buffer.from(record.Data ?? new Uint8Array()).toString('utf8')) as { kind?: string }).kind;
  } catch {
    return undefined;
  }
}

/** The Kinesis event of a batch of one shard, as Lambda builds it. */
export function kinesisEvent(batch: _Record[], source: { shardId: string; region: string; streamArn: string }): KinesisStreamEvent {
  const { shardId } = source;
  return {
    Records: batch.map(
      (record): KinesisStreamRecord => ({
        kinesis: {
          kinesisSchemaVersion: '1.0',
          partitionKey: record.PartitionKey!,
          sequenceNumber: record.SequenceNumber!,
          data: Buffer.from(record.Data ?? new Uint8Array()).toString('base64'),
          approximateArrivalTimestamp: (record.ApproximateArrivalTimestamp?.getTime() ?? Date.now()) / 1000,
        },
        eventSource: 'aws:kinesis',
        eventVersion: '1.0',
        eventID: `${shardId}:${record.SequenceNumber}`,
        eventName: 'aws:kinesis:record',
        invokeIdentityArn: 'arn:aws:iam::000000000000:role/local',
        awsRegion: source.region,
        eventSourceARN: source.streamArn,
      }),
    ),
  };
}
