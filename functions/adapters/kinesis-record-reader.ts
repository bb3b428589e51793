/**
 * RecordReader on Kinesis, for replay: a shard's records from one sequence
 * number through another, read with an AT_SEQUENCE_NUMBER iterator and
 * GetRecords until a record past the end, or the shard's tip.
 */
import { GetRecordsCommand, GetShardIteratorCommand, type _Record, type KinesisClient } from '@aws-sdk/client-kinesis';
import type { RecordReader } from '../back-office/replay';

/** GetRecords calls one read may make: a failed batch spans a few hundred records of one shard, not a backlog. */
const MAX_CALLS = 1000;

export class KinesisRecordReader implements RecordReader {
  constructor(
    private readonly client: KinesisClient,
    private readonly streamName: string,
  ) {}

  async read(range: { shardId: string; start: string; end: string }): Promise<_Record[]> {
    const end = BigInt(range.end);
    const start = await this.client.send(
      new GetShardIteratorCommand({
        StreamName: this.streamName,
        ShardId: range.shardId,
        ShardIteratorType: 'AT_SEQUENCE_NUMBER',
        StartingSequenceNumber: range.start,
      }),
    );
    const records: _Record[] = [];
    let iterator = start.ShardIterator;
    for (let calls = 0; iterator && calls < MAX_CALLS; calls++) {
      const page = await this.client.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      for (const record of page.Records ?? []) {
        if (BigInt(record.SequenceNumber!) > end) return records;
        records.push(record);
      }
      // An empty page at the tip: nothing more to read. (Empty pages behind the tip happen; read on.)
      if ((page.Records ?? []).length === 0 && (page.MillisBehindLatest ?? 0) === 0) return records;
      iterator = page.NextShardIterator;
    }
    return records;
  }
}
