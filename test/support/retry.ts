/** For adapter tests: retry policies that wait for nothing, and DynamoDB's refusals to retry on. */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { RetryPolicy } from '../../functions/adapters/retry';

/** `policy` with its jitter fixed at half and its waits noted in `waits` instead of waited. */
export function noWaiting(policy: RetryPolicy): RetryPolicy & { waits: number[] } {
  const waits: number[] = [];
  return { ...policy, waits, sleep: async (ms) => void waits.push(ms), random: () => 0.5 };
}

/** A TransactWriteItems refusal with one cancellation reason per item, as DynamoDB sends it. */
export const transactionCancelled = (...codes: string[]) =>
  new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });
