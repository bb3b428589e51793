/**
 * The adapters' one retry: a bounded number of attempts, waiting between them
 * a uniformly random time up to a doubling, capped delay (full jitter, so
 * racing writers spread out instead of colliding again in step).
 *
 * On p-retry, with its own wait off: its `randomize` is 1–2× rather than full
 * jitter, and its setTimeout can't be replaced in a test. The wait happens in
 * `shouldRetry`, which p-retry calls only when a retry is left.
 */
import { setTimeout as wait } from 'node:timers/promises';
import pRetry from 'p-retry';

export interface RetryPolicy {
  /** Attempts, the first included. */
  maxAttempts: number;
  /** The longest first wait; it doubles after every attempt, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Given in tests, so they don't wait; the default is `backoffTimer.sleep`. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** Where policies without their own `sleep` wait: a handler test replaces it, since its adapters are built at module scope. */
export const backoffTimer = {
  sleep: async (ms: number): Promise<void> => void (await wait(ms)),
};

/** Thrown by an attempt that left part of its work undone (unprocessed items, refused records), for the next attempt. */
export class Unfinished extends Error {}

export const isUnfinished = (error: unknown): error is Unfinished => error instanceof Unfinished;

/** The wait after failed attempt `attempt` (1-based). */
export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor((policy.random ?? Math.random)() * cap);
}

/** Runs `attempt` until it succeeds, fails with an error `retryable` refuses, or `maxAttempts` are spent; then throws its last error. */
export function withRetry<T>(policy: RetryPolicy, retryable: (error: Error) => boolean, attempt: (attemptNumber: number) => Promise<T>): Promise<T> {
  return pRetry(attempt, {
    retries: policy.maxAttempts - 1,
    minTimeout: 0,
    shouldRetry: async ({ error, attemptNumber }) => {
      if (!retryable(error)) return false;
      await (policy.sleep ?? backoffTimer.sleep)(backoffDelay(policy, attemptNumber));
      return true;
    },
  });
}
