/**
 * BatchWriteItem in chunks of 25, retrying UnprocessedItems with capped
 * exponential backoff until every request is done (or the bound is reached,
 * when it throws so the stream delivers the batch again).
 */
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

type WriteRequest = NonNullable<ConstructorParameters<typeof BatchWriteCommand>[0]['RequestItems']>[string][number];

export interface BatchRetry {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
}

export const defaultBatchRetry: BatchRetry = {
  maxAttempts: 12,
  baseDelayMs: 50,
  maxDelayMs: 2000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export async function batchWriteAll(
  db: DynamoDBDocumentClient,
  tableName: string,
  requests: WriteRequest[],
  retry: BatchRetry = defaultBatchRetry,
): Promise<void> {
  for (let start = 0; start < requests.length; start += 25) {
    let pending = requests.slice(start, start + 25);
    for (let attempt = 1; pending.length > 0; attempt++) {
      const out = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (out.UnprocessedItems?.[tableName] ?? []) as WriteRequest[];
      if (pending.length === 0) break;
      if (attempt >= retry.maxAttempts) {
        throw new Error(`${pending.length} writes to ${tableName} still unprocessed after ${attempt} attempts`);
      }
      await retry.sleep(Math.random() * Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** attempt));
    }
  }
}
