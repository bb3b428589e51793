/**
 * Whether the local stack's consumers have passed every record a test got a
 * receipt for: each consumer's checkpoint on each shard (the stream poller's
 * checkpoints.json in the stack's data directory) against the receipted
 * sequence numbers. A test that waits for this, rather than for a fixed
 * moment, knows that nothing still on the stream could change what it reads.
 */
import { readFileSync } from 'node:fs';
import { streamConsumers } from '../../functions/manifest/operations';
import { waitFor } from './local-process';

export interface ReceiptEntry {
  ShardId?: string;
  SequenceNumber?: string;
}

export class StreamReceipts {
  private readonly byShard = new Map<string, { seq: bigint; at: number }[]>();

  constructor(private readonly checkpointsFile: string) {}

  /** Notes the entries of a write receipt (PutRecords' answer, or /profiles' and /events'). */
  note(entries: ReceiptEntry[], at = Date.now()): void {
    for (const entry of entries) {
      if (!entry.ShardId || !entry.SequenceNumber) continue;
      const list = this.byShard.get(entry.ShardId) ?? [];
      list.push({ seq: BigInt(entry.SequenceNumber), at });
      this.byShard.set(entry.ShardId, list);
    }
  }

  /** Seconds the slowest consumer is behind the oldest receipt it has not passed yet (0 when every consumer has passed them all). */
  lagSeconds(now = Date.now()): number {
    let checkpoints: Record<string, Record<string, string>> = {};
    try {
      checkpoints = JSON.parse(readFileSync(this.checkpointsFile, 'utf8'));
    } catch {
      // not written yet: no consumer has passed anything
    }
    let worst = 0;
    for (const [shard, receipts] of this.byShard) {
      for (const consumer of streamConsumers) {
        const passed = checkpoints[consumer.id]?.[shard];
        const checkpoint = passed ? BigInt(passed) : -1n;
        const behind = receipts.find((receipt) => receipt.seq > checkpoint);
        if (behind) worst = Math.max(worst, (now - behind.at) / 1000);
      }
    }
    return worst;
  }

  drained(): boolean {
    return this.lagSeconds() === 0;
  }

  /** Waits until every consumer has passed every receipted record. */
  async waitUntilDrained(ms = 120_000): Promise<void> {
    await waitFor(() => this.drained(), 'the consumers to pass every receipted record', ms);
  }
}
