/**
 * RecordWriter on Kinesis: PutRecords in chunks of at most 500 records and
 * 5 MiB, retrying only the entries Kinesis refused, with capped exponential
 * backoff and full jitter, a bounded number of times. Entries still refused
 * keep Kinesis's ErrorCode/ErrorMessage in the receipt.
 */
import { PutRecordsCommand, type KinesisClient } from '@aws-sdk/client-kinesis';
import type { ReceiptEntry, RecordWriter, StreamEntry, WriteReceipt } from '../domain/ingest';
import { MiB } from '../domain/limits';
import { logger } from '../logger';

export interface RetryPolicy {
  /** Attempts per entry, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 100,
  maxDelayMs: 2000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

const MAX_RECORDS_PER_CALL = 500;
const MAX_BYTES_PER_CALL = 5 * MiB;

export class KinesisRecordWriter implements RecordWriter {
  constructor(
    private readonly client: KinesisClient,
    private readonly streamName: string,
    private readonly retry: RetryPolicy = defaultRetryPolicy,
  ) {}

  async write(entries: StreamEntry[]): Promise<WriteReceipt> {
    const receipt: ReceiptEntry[] = new Array(entries.length);
    let encryptionType: string | undefined;
    let written = 0;
    for (const chunk of chunkIndexes(entries)) {
      let pending = chunk;
      for (let attempt = 1; pending.length > 0; attempt++) {
        let output;
        try {
          output = await this.client.send(
            new PutRecordsCommand({
              StreamName: this.streamName,
              Records: pending.map((i) => ({ Data: entries[i].data, PartitionKey: entries[i].partitionKey })),
            }),
          );
        } catch (error) {
          // Nothing written yet: the request fails as a whole and may simply be re-sent.
          if (written === 0) throw error;
          logger.error('PutRecords failed after some records were written', { error, failed: pending.length });
          for (const i of pending) receipt[i] = { ErrorCode: 'InternalFailure', ErrorMessage: 'Internal service failure.' };
          break;
        }
        encryptionType ??= output.EncryptionType;
        const refused: number[] = [];
        (output.Records ?? []).forEach((result, j) => {
          const i = pending[j];
          if (result.ErrorCode) {
            receipt[i] = { ErrorCode: result.ErrorCode, ErrorMessage: result.ErrorMessage ?? '' };
            refused.push(i);
          } else {
            receipt[i] = { SequenceNumber: result.SequenceNumber ?? '', ShardId: result.ShardId ?? '' };
            written++;
          }
        });
        if (refused.length === 0 || attempt >= this.retry.maxAttempts) break;
        await this.retry.sleep(this.backoff(attempt));
        pending = refused;
      }
    }
    const failed = receipt.filter((entry) => 'ErrorCode' in entry).length;
    if (failed > 0) logger.warn('Records refused by the stream after retries', { failed, total: entries.length });
    return { EncryptionType: encryptionType ?? 'NONE', FailedRecordCount: failed, Records: receipt };
  }

  /** Full jitter: uniformly between 0 and the capped exponential delay. */
  private backoff(attempt: number): number {
    const cap = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    return Math.floor(this.retry.random() * cap);
  }
}

/** Splits entry indexes into PutRecords-sized chunks, keeping order. */
export function chunkIndexes(entries: StreamEntry[]): number[][] {
  const chunks: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  entries.forEach((entry, i) => {
    const size = entry.data.byteLength + Buffer.byteLength(entry.partitionKey);
    if (current.length === MAX_RECORDS_PER_CALL || (current.length > 0 && bytes + size > MAX_BYTES_PER_CALL)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(i);
    bytes += size;
  });
  if (current.length > 0) chunks.push(current);
  return chunks;
}
