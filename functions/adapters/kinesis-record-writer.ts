/**
 * RecordWriter on Kinesis: PutRecords in chunks of at most 500 records and
 * 5 MiB, retrying only the entries Kinesis refused, with capped exponential
 * backoff and full jitter, a bounded number of times. Entries still refused
 * keep Kinesis's ErrorCode/ErrorMessage in the receipt.
 *
 * Kinesis gives no order within one PutRecords: it writes a later entry even
 * when it refuses an earlier one, so a retried entry lands after those that
 * followed it. Where that matters (profile records), `keepKeyOrder` sends in
 * rounds: round r holds the r-th entry of each partition key, and goes only
 * once round r - 1 and its retries are done. Keys with one entry all go in
 * round 1, so a request without repeated keys is still one call per chunk.
 */
import { PutRecordsCommand, type KinesisClient, type PutRecordsCommandOutput } from '@aws-sdk/client-kinesis';
import type { ReceiptEntry, RecordWriter, StreamEntry, WriteReceipt } from '../domain/ingest';
import { MiB } from '../domain/limits';
import { logger } from '../runtime/logger';
import { isUnfinished, Unfinished, withRetry, type RetryPolicy } from './retry';

export type { RetryPolicy } from './retry';

/** Up to 4 attempts per entry, waits of at most 100 ms, 200 ms, 400 ms. */
export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 2000 };

const MAX_RECORDS_PER_CALL = 500;
const MAX_BYTES_PER_CALL = 5 * MiB;

export interface RecordWriterOptions {
  /** Write each partition key's entries in input order even when Kinesis refuses some (in rounds: see above). */
  keepKeyOrder?: boolean;
}

/** What a key's later entries answer, unsent, once an entry of the key was refused for good. */
export const heldBackMessage = (refused: number) => `Not written: an earlier record of the same profile ([${refused}]) was refused`;

export class KinesisRecordWriter implements RecordWriter {
  constructor(
    private readonly client: KinesisClient,
    private readonly streamName: string,
    private readonly retry: RetryPolicy = defaultRetryPolicy,
    private readonly options: RecordWriterOptions = {},
  ) {}

  async write(entries: StreamEntry[]): Promise<WriteReceipt> {
    const run: Run = { entries, receipt: new Array(entries.length), written: 0 };
    const all = entries.map((_, i) => i);
    /** Per partition key, its first entry refused for good. */
    const refused = new Map<string, number>();
    let heldBack = 0;
    for (const round of this.options.keepKeyOrder ? keyRounds(entries) : [all]) {
      const sendable: number[] = [];
      for (const i of round) {
        const earlier = refused.get(entries[i].partitionKey);
        if (earlier === undefined) {
          sendable.push(i);
          continue;
        }
        const { ErrorCode } = run.receipt[earlier] as { ErrorCode: string };
        run.receipt[i] = { ErrorCode, ErrorMessage: heldBackMessage(earlier) };
        heldBack++;
      }
      for (const chunk of chunkIndexes(entries, sendable)) await this.sendChunk(run, chunk);
      for (const i of sendable) {
        if ('ErrorCode' in run.receipt[i] && !refused.has(entries[i].partitionKey)) refused.set(entries[i].partitionKey, i);
      }
    }
    const failed = run.receipt.filter((entry) => 'ErrorCode' in entry).length;
    if (failed > 0) logger.warn('Records refused by the stream after retries', { failed, held_back: heldBack, total: entries.length });
    return { EncryptionType: run.encryptionType ?? 'NONE', FailedRecordCount: failed, Records: run.receipt };
  }

  /** Writes one chunk, retrying the refused entries; fills their receipt entries. */
  private async sendChunk(run: Run, chunk: number[]): Promise<void> {
    const { entries, receipt } = run;
    let pending = chunk;
    const attempt = async () => {
      let output: PutRecordsCommandOutput;
      try {
        output = await this.client.send(
          new PutRecordsCommand({
            StreamName: this.streamName,
            Records: pending.map((i) => ({ Data: entries[i].data, PartitionKey: entries[i].partitionKey })),
          }),
        );
      } catch (error) {
        // Nothing written yet: the request fails as a whole and may simply be re-sent.
        if (run.written === 0) throw error;
        logger.error('PutRecords failed after some records were written', { error, failed: pending.length });
        for (const i of pending) receipt[i] = { ErrorCode: 'InternalFailure', ErrorMessage: 'Internal service failure.' };
        return;
      }
      run.encryptionType ??= output.EncryptionType;
      const refused: number[] = [];
      (output.Records ?? []).forEach((result, j) => {
        const i = pending[j];
        if (result.ErrorCode) {
          receipt[i] = { ErrorCode: result.ErrorCode, ErrorMessage: result.ErrorMessage ?? '' };
          refused.push(i);
        } else {
          receipt[i] = { SequenceNumber: result.SequenceNumber ?? '', ShardId: result.ShardId ?? '' };
          run.written++;
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
}

/** One write's progress, shared by its calls. */
interface Run {
  entries: StreamEntry[];
  receipt: ReceiptEntry[];
  encryptionType?: string;
  /** Entries written so far: once there are some, a failed call no longer fails the request. */
  written: number;
}

/** Round r: the r-th entry of each partition key, in input order. */
export function keyRounds(entries: StreamEntry[]): number[][] {
  const rounds: number[][] = [];
  const seen = new Map<string, number>();
  entries.forEach((entry, i) => {
    const r = seen.get(entry.partitionKey) ?? 0;
    seen.set(entry.partitionKey, r + 1);
    rounds[r] ??= [];
    rounds[r].push(i);
  });
  return rounds;
}

/** Splits entry indexes (all, by default) into PutRecords-sized chunks, keeping order. */
export function chunkIndexes(entries: StreamEntry[], indexes: number[] = entries.map((_, i) => i)): number[][] {
  const chunks: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  for (const i of indexes) {
    const entry = entries[i];
    const size = entry.data.byteLength + Buffer.byteLength(entry.partitionKey);
    if (current.length === MAX_RECORDS_PER_CALL || (current.length > 0 && bytes + size > MAX_BYTES_PER_CALL)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(i);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
