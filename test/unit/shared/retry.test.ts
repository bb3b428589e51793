import { describe, expect, test } from '@jest/globals';
import { backoffDelay, withRetry, type RetryPolicy } from '../../../functions/adapters/retry';

class Retryable extends Error {}

const policy = (sleeps: number[], random = () => 1): RetryPolicy => ({
  maxAttempts: 4,
  baseDelayMs: 100,
  maxDelayMs: 300,
  sleep: async (ms) => void sleeps.push(ms),
  random,
});
const isRetryable = (error: Error) => error instanceof Retryable;

describe('withRetry', () => {
  test('answers the first success, after waiting between the failed attempts', async () => {
    const sleeps: number[] = [];
    const attempts: number[] = [];

    const result = await withRetry(policy(sleeps), isRetryable, async (attempt) => {
      attempts.push(attempt);
      if (attempt < 3) throw new Retryable(`attempt ${attempt}`);
      return 'done';
    });

    expect(result).toBe('done');
    expect(attempts).toEqual([1, 2, 3]);
    expect(sleeps).toEqual([100, 200]);
  });

  test('makes maxAttempts attempts in all, then throws the last error without waiting after it', async () => {
    const sleeps: number[] = [];
    let attempts = 0;

    await expect(
      withRetry(policy(sleeps), isRetryable, async (attempt) => {
        attempts++;
        throw new Retryable(`attempt ${attempt}`);
      }),
    ).rejects.toMatchObject({ message: 'attempt 4' });

    expect(attempts).toBe(4);
    // Doubling from 100 ms, capped at 300 ms.
    expect(sleeps).toEqual([100, 200, 300]);
  });

  test('throws an error it must not retry at once', async () => {
    const sleeps: number[] = [];
    let attempts = 0;

    await expect(
      withRetry(policy(sleeps), isRetryable, async () => {
        attempts++;
        throw new Error('not retryable');
      }),
    ).rejects.toMatchObject({ message: 'not retryable' });

    expect(attempts).toBe(1);
    expect(sleeps).toEqual([]);
  });
});

describe('backoffDelay', () => {
  test('is full jitter: a uniform share of the capped, doubling delay, in whole milliseconds', () => {
    const at = (random: number, attempt: number) => backoffDelay({ ...policy([]), random: () => random }, attempt);

    expect([at(0, 1), at(0.5, 1), at(0.999, 1), at(0.5, 2), at(0.5, 3), at(0.5, 9)]).toEqual([0, 50, 99, 100, 150, 150]);
  });
});
