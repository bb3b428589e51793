/**
 * The DynamoDB batch and conditional writes the stores share. BatchWriteItem
 * in chunks of 25 and BatchGetItem in chunks of 100, each retrying what comes
 * back unprocessed with capped exponential backoff until done (or the bound
 * is reached, when it throws so the stream delivers the batch again); and the
 * optimistic put of an item that carries a `version`.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, PutCommand, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { isUnfinished, Unfinished, withRetry, type RetryPolicy } from './retry';

type WriteRequest = NonNullable<ConstructorParameters<typeof BatchWriteCommand>[0]['RequestItems']>[string][number];
/** An item as the document client reads and writes it. */
type Item = Record<string, NativeAttributeValue>;

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

export interface BatchGetOptions {
  consistent?: boolean;
  /** Only these attributes (by name). */
  fields?: readonly string[];
  /** What the items are, for the error when reads stay unprocessed (`profile`, `funnel`). */
  what: string;
  retry?: RetryPolicy;
}

/** Every item of `keys` that exists (keys given twice are read once), in chunks of 100. */
export async function batchGetAll(db: DynamoDBDocumentClient, tableName: string, keys: Record<string, unknown>[], options: BatchGetOptions): Promise<Item[]> {
  const projection = options.fields?.length
    ? {
        ProjectionExpression: options.fields.map((_, i) => `#f${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(options.fields.map((field, i) => [`#f${i}`, field])),
      }
    : {};
  const unique = [...new Map(keys.map((key) => [JSON.stringify(key), key])).values()];
  const found: Item[] = [];
  for (let start = 0; start < unique.length; start += 100) {
    let pending = unique.slice(start, start + 100);
    // p-retry, not the SDK's retry strategy: UnprocessedKeys come in a successful response, which the SDK never retries.
    await withRetry(options.retry ?? unprocessedRetry, isUnfinished, async (attempt) => {
      const out = await db.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: options.consistent ?? false, ...projection } } }),
      );
      found.push(...(out.Responses?.[tableName] ?? []));
      pending = out.UnprocessedKeys?.[tableName]?.Keys ?? [];
      if (pending.length > 0) throw new Unfinished(`${pending.length} ${options.what} reads still unprocessed after ${attempt} attempts`);
    });
  }
  return found;
}

/**
 * Puts `item` if nobody changed it since it was read at `expectedVersion`
 * (undefined: it did not exist); false when somebody did.
 */
export async function putVersioned(db: DynamoDBDocumentClient, tableName: string, item: Item, expectedVersion: number | undefined): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: item,
        ...(expectedVersion === undefined
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : { ConditionExpression: 'version = :expected', ExpressionAttributeValues: { ':expected': expectedVersion } }),
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
