/**
 * Emulates Lambda's Kinesis event source mapping for the local stack: one
 * poller per consumer and shard, the consumer's record-kind filter, batches of
 * its batch size, partial batch responses (checkpoint before the first failed
 * record and retry from it), bisection of a batch whose invocation throws,
 * bounded retries and record age, then the on-failure destination
 * (on-failure.ts). Checkpoints (checkpoints.ts) are kept on disk, so a restart
 * resumes where the last run stopped.
 */
import { DescribeStreamCommand, GetRecordsCommand, GetShardIteratorCommand, type _Record, type KinesisClient } from '@aws-sdk/client-kinesis';
import type { Context, KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import type { StreamConsumer } from '../../../functions/manifest/operations';
import { lambdaContext } from '../api-gateway';
import { invoke } from '../invocation';
import type { FileCheckpointStore } from './checkpoints';
import { kindOf, kinesisEvent } from '../../../functions/stream/kinesis-event';
import { failureRecord, type FailureRecord } from './on-failure';

/** A consumer's function name in the local stack: its on-failure records name it, and replay finds the consumer by it. */
export function localFunctionName(consumer: StreamConsumer): string {
  return `${consumer.id}Function`;
}

// biome-ignore lint/suspicious/noConfusingVoidType: as in Lambda, a consumer may return nothing (no partial failures).
export type ConsumerHandler = (event: KinesisStreamEvent, context: Context) => Promise<KinesisStreamBatchResponse | void>;

export interface ConsumerBinding {
  consumer: StreamConsumer;
  handler: ConsumerHandler;
}

export interface PollerOptions {
  streamName: string;
  region: string;
  /** The shortest wait after a GetRecords that found nothing. */
  pollIntervalMs: number;
  /**
   * The longest: until records are put (recordsPut) or this long. By default pollIntervalMs: a poller that is told
   * of puts polls an idle stream this seldom (Lambda polls each shard once a second) and a busy one as often as
   * pollIntervalMs allows.
   */
  idlePollMs?: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  log: (line: string) => void;
}

export class StreamPoller {
  private running = false;
  private loops: Promise<void>[] = [];
  private wake = new Set<() => void>();
  /** Idle waits, which records put end early. */
  private idle = new Set<() => void>();
  /** Counts recordsPut calls: a put during a GetRecords that found nothing is not missed. */
  private puts = 0;

  constructor(
    private readonly kinesis: KinesisClient,
    private readonly bindings: ConsumerBinding[],
    private readonly checkpoints: FileCheckpointStore,
    private readonly onFailure: (failure: FailureRecord) => Promise<void>,
    private readonly options: PollerOptions,
  ) {}

  private get streamArn(): string {
    return `arn:aws:kinesis:${this.options.region}:000000000000:stream/${this.options.streamName}`;
  }

  async start(): Promise<void> {
    const description = await this.kinesis.send(new DescribeStreamCommand({ StreamName: this.options.streamName }));
    const shards = (description.StreamDescription?.Shards ?? []).map((shard) => shard.ShardId!);
    this.running = true;
    for (const binding of this.bindings) {
      for (const shardId of shards) this.loops.push(this.pollShard(binding, shardId));
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const wake of this.wake) wake();
    await Promise.all(this.loops);
    this.loops = [];
  }

  /** Records were put on the stream: idle pollers poll again (after pollIntervalMs since their last poll). */
  recordsPut(): void {
    this.puts++;
    for (const wake of [...this.idle]) wake();
  }

  /** Sleeps, but wakes at once when the poller stops, and, if `untilPut`, when records are put. */
  private pause(ms: number, untilPut = false): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake.delete(done);
        this.idle.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake.add(done);
      if (untilPut) this.idle.add(done);
    });
  }

  /** After a GetRecords that found nothing: pollIntervalMs at least, then until records are put or idlePollMs has passed. */
  private async waitForRecords(putsBefore: number): Promise<void> {
    const { pollIntervalMs, idlePollMs = pollIntervalMs } = this.options;
    await this.pause(pollIntervalMs);
    if (this.running && this.puts === putsBefore && idlePollMs > pollIntervalMs) await this.pause(idlePollMs - pollIntervalMs, true);
  }

  private async iteratorFor(consumerId: string, shardId: string): Promise<string> {
    const checkpoint = this.checkpoints.get(consumerId, shardId);
    const out = await this.kinesis.send(
      new GetShardIteratorCommand({
        StreamName: this.options.streamName,
        ShardId: shardId,
        ...(checkpoint ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', StartingSequenceNumber: checkpoint } : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return out.ShardIterator!;
  }

  private async pollShard(binding: ConsumerBinding, shardId: string): Promise<void> {
    const { consumer } = binding;
    let iterator: string | undefined;
    while (this.running) {
      try {
        iterator ??= await this.iteratorFor(consumer.id, shardId);
        const putsBefore = this.puts;
        const out = await this.kinesis.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: consumer.batchSize }));
        const records = out.Records ?? [];
        if (records.length > 0) {
          const matching = records.filter((record) => consumer.kinds.includes(kindOf(record) as never));
          if (matching.length > 0 && !(await this.deliver(binding, shardId, matching))) return;
          await this.checkpoints.set(consumer.id, shardId, records.at(-1)!.SequenceNumber!);
        }
        iterator = out.NextShardIterator;
        if (records.length === 0) await this.waitForRecords(putsBefore);
      } catch (error) {
        if (!this.running) return;
        this.options.log(`poller ${consumer.id}/${shardId}: ${(error as Error).message}; resuming from the checkpoint`);
        iterator = undefined;
        await this.pause(1000);
      }
    }
  }

  /** Delivers records until each is processed or sent to the on-failure destination; false if stopped first. */
  private async deliver(binding: ConsumerBinding, shardId: string, records: _Record[]): Promise<boolean> {
    const { consumer, handler } = binding;
    const queue: _Record[][] = [records];
    while (queue.length > 0) {
      let batch = queue.shift()!;
      for (let attempt = 1; ; attempt++) {
        if (!this.running) return false;
        let reason: string;
        try {
          const response = await invoke(
            handler,
            kinesisEvent(batch, { shardId, region: this.options.region, streamArn: this.streamArn }),
            lambdaContext(localFunctionName(consumer), 5 * 60_000),
          );
          const failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
          if (failed.size === 0) {
            await this.checkpoints.set(consumer.id, shardId, batch.at(-1)!.SequenceNumber!);
            break;
          }
          const first = batch.findIndex((record) => failed.has(record.SequenceNumber!));
          if (first > 0) {
            await this.checkpoints.set(consumer.id, shardId, batch[first - 1].SequenceNumber!);
            batch = batch.slice(first);
          }
          reason = `batch item failure at ${batch[0].SequenceNumber}`;
        } catch (error) {
          reason = (error as Error).message;
          if (batch.length > 1) {
            const middle = Math.ceil(batch.length / 2);
            queue.unshift(batch.slice(0, middle), batch.slice(middle));
            this.options.log(`consumer ${consumer.id} threw (${reason}); bisecting a batch of ${batch.length}`);
            break;
          }
        }
        const tooOld = Date.now() - (batch[0].ApproximateArrivalTimestamp?.getTime() ?? Date.now()) > consumer.maxRecordAgeSeconds * 1000;
        if (attempt > consumer.retryAttempts || tooOld) {
          await this.sendToFailureDestination(consumer, shardId, batch, attempt, tooOld, reason);
          await this.checkpoints.set(consumer.id, shardId, batch.at(-1)!.SequenceNumber!);
          break;
        }
        await this.pause(Math.min(this.options.retryMaxDelayMs, this.options.retryBaseDelayMs * 2 ** (attempt - 1)));
      }
    }
    return true;
  }

  private async sendToFailureDestination(
    consumer: StreamConsumer,
    shardId: string,
    batch: _Record[],
    invokeCount: number,
    tooOld: boolean,
    reason: string,
  ): Promise<void> {
    this.options.log(`consumer ${consumer.id}: ${batch.length} record(s) sent to the on-failure destination (${reason})`);
    await this.onFailure(
      failureRecord({
        functionName: localFunctionName(consumer),
        region: this.options.region,
        streamArn: this.streamArn,
        shardId,
        batch,
        invokeCount,
        tooOld,
        reason,
      }),
    );
  }
}
