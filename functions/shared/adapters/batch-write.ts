/**
 * BatchWriteItem in chunks of 25, retrying UnprocessedItems with capped
 * exponential backoff until every request is done (or the bound is reached,
 * when it throws so the stream delivers the batch again).
 */
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isUnfinished, Unfinished, withRetry, type RetryPolicy } from './retry';

type WriteRequest = NonNullable<ConstructorParameters<typeof BatchWriteCommand>[0]['RequestItems']>[string][number];

/** For UnprocessedItems and UnprocessedKeys: up to 12 attempts, waits of at most 100 ms, 200 ms, … 2 s. */
export const unprocessedRetry: RetryPolicy = { maxAttempts: 12, baseDelayMs: 100, maxDelayMs: 2000 };

export async function batchWriteAll(
  db: DynamoDBDocumentClient,
  tableName: string,
  requests: WriteRequest[],
  retry: RetryPolicy = unprocessedRetry,
): Promise<void> {
  for (let start = 0; start < requests.length; start += 25) {
    let pending = requests.slice(start, start + 25);
    // p-retry, not the SDK's retry strategy: UnprocessedItems come in a successful response, which the SDK never retries.
    await withRetry(retry, isUnfinished, async (attempt) => {
      const out = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (out.UnprocessedItems?.[tableName] ?? []) as WriteRequest[];
      if (pending.length > 0) throw new Unfinished(`${pending.length} writes to ${tableName} still unprocessed after ${attempt} attempts`);
    });
  }
}
