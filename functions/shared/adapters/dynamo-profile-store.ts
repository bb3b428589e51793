import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StoredProfile } from '../domain/profile-state';
import type { ProfileStore } from '../domain/timeline';

export class DynamoProfileStore implements ProfileStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
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
      for (let attempt = 1; keys.length > 0; attempt++) {
        const out = await this.db.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: consistent, ...projection } } }));
        for (const item of out.Responses?.[this.tableName] ?? []) found.set(item.pk as string, item as StoredProfile);
        keys = out.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
        if (keys.length === 0) break;
        if (attempt >= 12) throw new Error(`${keys.length} profile reads still unprocessed after ${attempt} attempts`);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2000, 50 * 2 ** attempt)));
      }
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
