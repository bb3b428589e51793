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
import { isUnfinished, Unfinished, withRetry, type RetryPolicy } from './retry';

export type { RetryPolicy } from './retry';

/** Up to 4 attempts per entry, waits of at most 100 ms, 200 ms, 400 ms. */
export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 2000 };

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
      const attempt = async () => {
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
          return;
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
        pending = refused;
        if (refused.length > 0) throw new Unfinished(`${refused.length} records refused`);
      };
      // p-retry, not the SDK's retry strategy: refused entries come in a successful response, which the SDK never retries.
      // Entries still refused after the last attempt keep Kinesis's answer in the receipt.
      await withRetry(this.retry, isUnfinished, attempt).catch((error) => {
        if (!isUnfinished(error)) throw error;
      });
    }
    const failed = receipt.filter((entry) => 'ErrorCode' in entry).length;
    if (failed > 0) logger.warn('Records refused by the stream after retries', { failed, total: entries.length });
    return { EncryptionType: encryptionType ?? 'NONE', FailedRecordCount: failed, Records: receipt };
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
