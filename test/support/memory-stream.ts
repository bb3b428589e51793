/** A RecordWriter for core tests: keeps what it is given and refuses the entries at the given indexes. */
import type { RecordWriter, StreamEntry, WriteReceipt } from '../../functions/domain/ingest';

export class MemoryStream implements RecordWriter {
  readonly writes: StreamEntry[][] = [];
  constructor(private readonly refuse: number[] = []) {}

  async write(entries: StreamEntry[]): Promise<WriteReceipt> {
    this.writes.push(entries);
    const records = entries.map((_, i) =>
      this.refuse.includes(i)
        ? { ErrorCode: 'ProvisionedThroughputExceededException', ErrorMessage: 'slow down' }
        : { SequenceNumber: `${100 + i}`, ShardId: 'shardId-000000000000' },
    );
    return { EncryptionType: 'NONE', FailedRecordCount: this.refuse.length, Records: records };
  }
}
