/** Reading the local stream directly, to prove what did or did not reach it. */
import { DescribeStreamCommand, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-kinesis';
import { localClients, type LocalEndpoints } from '../../lib/local/stack';
import { ingestStream } from '../../functions/manifest/resources';
import { decodeEnvelope, type StreamEnvelope } from '../../functions/domain/stream-record';

export interface StoredRecord {
  shardId: string;
  sequenceNumber: string;
  envelope: StreamEnvelope;
}

export async function readWholeStream(endpoints: LocalEndpoints): Promise<StoredRecord[]> {
  const { kinesis } = localClients(endpoints);
  const description = await kinesis.send(new DescribeStreamCommand({ StreamName: ingestStream.localName }));
  const all: StoredRecord[] = [];
  for (const shard of description.StreamDescription?.Shards ?? []) {
    let iterator = (
      await kinesis.send(new GetShardIteratorCommand({ StreamName: ingestStream.localName, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' }))
    ).ShardIterator;
    while (iterator) {
      const out = await kinesis.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 10_000 }));
      for (const record of out.Records ?? []) {
        all.push({ shardId: shard.ShardId!, sequenceNumber: record.SequenceNumber!, envelope: decodeEnvelope(record.Data!) });
      }
      if (!out.Records?.length) break;
      iterator = out.NextShardIterator;
    }
  }
  kinesis.destroy();
  return all;
}
