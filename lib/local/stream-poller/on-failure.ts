/**
 * The event-source mapping's on-failure destination: the record Lambda sends
 * (to SQS in AWS) for a batch it gives up on, plus the reason, appended here
 * as one JSON line to a file. Replay (`npm run admin -- replay`) reads the
 * file and rewrites it without what it replayed; the poller may append
 * meanwhile, so both hold a lock file while they write.
 */
import type { _Record } from '@aws-sdk/client-kinesis';
import { appendFile, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { FailureEntry, FailureList } from '../../../functions/back-office/replay';

/** Lambda's on-failure record for Kinesis, plus the reason, appended as one JSON line. */
export interface FailureRecord {
  requestContext: { condition: 'RetryAttemptsExhausted' | 'RecordAgeExceeded'; functionArn: string; approximateInvokeCount: number };
  reason: string;
  version: '1.0';
  timestamp: string;
  KinesisBatchInfo: {
    shardId: string;
    startSequenceNumber: string;
    endSequenceNumber: string;
    approximateArrivalOfFirstRecord: string;
    approximateArrivalOfLastRecord: string;
    batchSize: number;
    streamArn: string;
  };
}

export function fileFailureSink(path: string) {
  return (failure: FailureRecord) => withLock(path, () => appendFile(path, `${JSON.stringify(failure)}\n`));
}

/** A lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 30_000;

/** Runs `write` holding `<path>.lock` (created exclusively), so an append and a rewrite never interleave. */
async function withLock<T>(path: string, write: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  for (;;) {
    try {
      await (await open(lock, 'wx')).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = await stat(lock).catch(() => undefined);
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await rm(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  try {
    return await write();
  } finally {
    await rm(lock, { force: true });
  }
}

/** The file as replay's FailureList: an entry is a line; removing it rewrites the file without that line. */
export class FileFailureList implements FailureList {
  constructor(private readonly path: string) {}

  async entries(): Promise<FailureEntry[]> {
    return (await this.lines()).map((line) => ({ handle: line, failure: JSON.parse(line) as FailureRecord }));
  }

  async remove(entry: FailureEntry): Promise<void> {
    await withLock(this.path, async () => {
      // Read again under the lock: the poller may have appended since entries().
      const lines = await this.lines();
      const at = lines.indexOf(entry.handle);
      if (at < 0) return;
      lines.splice(at, 1);
      await writeFile(`${this.path}.tmp`, lines.map((line) => `${line}\n`).join(''));
      await rename(`${this.path}.tmp`, this.path);
    });
  }

  private async lines(): Promise<string[]> {
    try {
      return (await readFile(this.path, 'utf8')).split('\n').filter((line) => line.trim() !== '');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }
}

/** The on-failure record of a batch given up on, as Lambda makes it. */
export function failureRecord(input: {
  functionName: string;
  region: string;
  streamArn: string;
  shardId: string;
  batch: _Record[];
  invokeCount: number;
  tooOld: boolean;
  reason: string;
}): FailureRecord {
  const { batch } = input;
  return {
    requestContext: {
      condition: input.tooOld ? 'RecordAgeExceeded' : 'RetryAttemptsExhausted',
      functionArn: `arn:aws:lambda:${input.region}:000000000000:function:${input.functionName}`,
      approximateInvokeCount: input.invokeCount,
    },
    reason: input.reason,
    version: '1.0',
    timestamp: new Date().toISOString(),
    KinesisBatchInfo: {
      shardId: input.shardId,
      startSequenceNumber: batch[0].SequenceNumber!,
      endSequenceNumber: batch.at(-1)!.SequenceNumber!,
      approximateArrivalOfFirstRecord: (batch[0].ApproximateArrivalTimestamp ?? new Date()).toISOString(),
      approximateArrivalOfLastRecord: (batch.at(-1)!.ApproximateArrivalTimestamp ?? new Date()).toISOString(),
      batchSize: batch.length,
      streamArn: input.streamArn,
    },
  };
}
