/** A RecordWriter for core and handler tests: keeps what it is given and refuses the entries at the given indexes. */
import type { RecordWriter, StreamEntry, WriteReceipt } from '../../functions/domain/ingest';
import { decodeEnvelope, type StreamEnvelope } from '../../functions/domain/stream-record';

export class MemoryStream implements RecordWriter {
  readonly writes: StreamEntry[][] = [];
  /** When set, every write fails with it, as an unreachable stream does (the write is still counted). */
  failure: Error | undefined;

  constructor(private readonly refuse: number[] = []) {}

  async write(entries: StreamEntry[]): Promise<WriteReceipt> {
    this.writes.push(entries);
    if (this.failure) throw this.failure;
    const records = entries.map((_, i) =>
      this.refuse.includes(i)
        ? { ErrorCode: 'ProvisionedThroughputExceededException', ErrorMessage: 'slow down' }
        : { SequenceNumber: `${100 + i}`, ShardId: 'shardId-000000000000' },
    );
    return { EncryptionType: 'NONE', FailedRecordCount: records.filter((record) => 'ErrorCode' in record).length, Records: records };
  }

  /** Every entry written, in order. */
  entries(): StreamEntry[] {
    return this.writes.flat();
  }

  /** The envelopes of every entry written, in order. */
  envelopes(): StreamEnvelope[] {
    return this.entries().map((entry) => decodeEnvelope(entry.data));
  }
}
