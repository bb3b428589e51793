import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StoredProfile } from '../domain/profile-state';
import type { ProfileStore } from '../domain/timeline';
import { unprocessedRetry } from './batch-write';
import { isUnfinished, Unfinished, withRetry, type RetryPolicy } from './retry';

export class DynamoProfileStore implements ProfileStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly retry: RetryPolicy = unprocessedRetry,
  ) {}

  async get(pk: string, consistent: boolean): Promise<StoredProfile | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk }, ConsistentRead: consistent }));
    return out.Item as StoredProfile | undefined;
  }

  async getMany(pks: string[], fields?: (keyof StoredProfile)[], consistent = false): Promise<Map<string, StoredProfile>> {
    const projection = fields?.length
      ? {
          ProjectionExpression: fields.map((_, i) => `#f${i}`).join(', '),
          ExpressionAttributeNames: Object.fromEntries(fields.map((field, i) => [`#f${i}`, field])),
        }
      : {};
    const found = new Map<string, StoredProfile>();
    const unique = [...new Set(pks)];
    for (let start = 0; start < unique.length; start += 100) {
      let keys: Record<string, unknown>[] = unique.slice(start, start + 100).map((pk) => ({ pk }));
      // p-retry, not the SDK's retry strategy: UnprocessedKeys come in a successful response, which the SDK never retries.
      await withRetry(this.retry, isUnfinished, async (attempt) => {
        const out = await this.db.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: consistent, ...projection } } }));
        for (const item of out.Responses?.[this.tableName] ?? []) found.set(item.pk as string, item as StoredProfile);
        keys = out.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
        if (keys.length > 0) throw new Unfinished(`${keys.length} profile reads still unprocessed after ${attempt} attempts`);
      });
    }
    return found;
  }

  async put(profile: StoredProfile, expectedVersion: number | undefined): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: profile,
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
}
