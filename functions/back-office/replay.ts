/**
 * Replay: re-applies what the consumers gave up on. The on-failure destination
 * (an SQS queue in AWS, `.urm/on-failure.jsonl` locally) lists each batch by
 * its shard and sequence-number range; the records themselves are still on the
 * stream (it keeps them longer than a consumer tries them). For each entry the
 * range is read again, the consumer's kinds kept, and the consumer invoked with
 * the Kinesis event Lambda would build; only when it applies every record is
 * the entry removed. The consumers are idempotent, so a record applied before,
 * or replayed twice, changes nothing: replay is at least once, the effect
 * exactly once.
 */
import type { _Record } from '@aws-sdk/client-kinesis';
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import type { StreamConsumer } from '../manifest/operations';
import { kindOf, kinesisEvent } from '../stream/kinesis-event';

/** Lambda's on-failure record for a Kinesis batch (what it sends to SQS), the fields replay reads. */
export interface KinesisFailureRecord {
  requestContext: { functionArn: string; condition?: string };
  reason?: string;
  timestamp?: string;
  KinesisBatchInfo: {
    shardId: string;
    startSequenceNumber: string;
    endSequenceNumber: string;
    batchSize: number;
    streamArn: string;
  };
}

/** One listed failure: `handle` is how its list removes it (an SQS receipt handle, a line of the file). */
export interface FailureEntry {
  handle: string;
  failure: KinesisFailureRecord;
}

/** The on-failure destination. */
export interface FailureList {
  /** Every entry listed now. */
  entries(): Promise<FailureEntry[]>;
  remove(entry: FailureEntry): Promise<void>;
  /** Lists an entry that was not replayed again at once (a queue hides what it hands out). */
  release?(entry: FailureEntry): Promise<void>;
}

/** Reads a shard's records from `start` through `end` (sequence numbers, inclusive), in order. */
export interface RecordReader {
  read(range: { shardId: string; start: string; end: string }): Promise<_Record[]>;
}

/** Invokes a deployed (or local) consumer with an event and returns what it answered; throws if it failed. */
export interface ConsumerInvoker {
  // biome-ignore lint/suspicious/noConfusingVoidType: as in Lambda, a consumer may return nothing (no partial failures).
  invoke(functionName: string, event: KinesisStreamEvent): Promise<KinesisStreamBatchResponse | void>;
}

/** A consumer of the manifest and the name of its function where replay runs. */
export interface ReplayTarget {
  consumer: StreamConsumer;
  functionName: string;
}

export interface ReplayPorts {
  failures: FailureList;
  records: RecordReader;
  invoker: ConsumerInvoker;
  targets: ReplayTarget[];
  region: string;
}

export interface ReplayOutcome {
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  /** The consumer's id, when the entry names one of ours. */
  consumer?: string;
  /** Records handed to the consumer (its kinds, within the range). */
  records: number;
  status: 'replayed' | 'failed';
  /** Why a failed entry stays listed. */
  error?: string;
}

/** A synchronous Lambda invocation takes at most 6 MB of event: batches stay under 5 MiB, as an event-source mapping's do. */
const MAX_EVENT_BYTES = 5 * 1024 * 1024;
/** What a record adds to the event besides its base64 data (ids, ARNs, field names), generously. */
const RECORD_OVERHEAD_BYTES = 1024;

/** Records in batches of at most `size` and MAX_EVENT_BYTES of event. */
function batches(records: _Record[], size: number): _Record[][] {
  const out: _Record[][] = [];
  let current: _Record[] = [];
  let bytes = 0;
  for (const record of records) {
    const recordBytes = Math.ceil(((record.Data?.length ?? 0) * 4) / 3) + RECORD_OVERHEAD_BYTES;
    if (current.length > 0 && (current.length === size || bytes + recordBytes > MAX_EVENT_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(record);
    bytes += recordBytes;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** The function name of an ARN (`…:function:NAME` or `…:function:NAME:qualifier`). */
function functionNameOf(functionArn: string): string {
  const parts = functionArn.split(':');
  const at = parts.indexOf('function');
  return at >= 0 && parts[at + 1] ? parts[at + 1] : functionArn;
}

/** Replays every listed failure, one after another; an entry that fails again stays listed, and the rest go on. */
export async function replayFailures(ports: ReplayPorts): Promise<ReplayOutcome[]> {
  const outcomes: ReplayOutcome[] = [];
  for (const entry of await ports.failures.entries()) outcomes.push(await replayOne(ports, entry));
  return outcomes;
}

async function replayOne(ports: ReplayPorts, entry: FailureEntry): Promise<ReplayOutcome> {
  const info = entry.failure.KinesisBatchInfo;
  const outcome: ReplayOutcome = {
    shardId: info.shardId,
    startSequenceNumber: info.startSequenceNumber,
    endSequenceNumber: info.endSequenceNumber,
    records: 0,
    status: 'failed',
  };
  const name = functionNameOf(entry.failure.requestContext.functionArn);
  const target = ports.targets.find((candidate) => candidate.functionName === name);
  if (!target) {
    await ports.failures.release?.(entry);
    return { ...outcome, error: `no consumer of this stack is function ${name}` };
  }
  outcome.consumer = target.consumer.id;
  try {
    const read = await ports.records.read({ shardId: info.shardId, start: info.startSequenceNumber, end: info.endSequenceNumber });
    if (read[0]?.SequenceNumber !== info.startSequenceNumber) {
      // The stream no longer holds the batch's first record (past its retention): nothing to replay it from.
      throw new Error(`record ${info.startSequenceNumber} is no longer on the stream`);
    }
    const records = read.filter(
      (record) => BigInt(record.SequenceNumber!) <= BigInt(info.endSequenceNumber) && target.consumer.kinds.includes(kindOf(record) as never),
    );
    for (const batch of batches(records, target.consumer.batchSize)) {
      const event = kinesisEvent(batch, { shardId: info.shardId, region: ports.region, streamArn: info.streamArn });
      const response = await ports.invoker.invoke(target.functionName, event);
      const failed = response?.batchItemFailures ?? [];
      if (failed.length > 0) throw new Error(`the consumer did not apply ${failed.map((f) => f.itemIdentifier).join(', ')}`);
      outcome.records += batch.length;
    }
    await ports.failures.remove(entry);
    return { ...outcome, status: 'replayed' };
  } catch (error) {
    await ports.failures.release?.(entry);
    return { ...outcome, error: (error as Error).message };
  }
}
