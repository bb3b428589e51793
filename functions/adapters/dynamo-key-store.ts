import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, paginateQuery, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord } from '../domain/api-keys';
import type { KeyStore } from '../domain/apps';

export class DynamoKeyStore implements KeyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly byAppIndex = 'by-app',
  ) {}

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { key_hash: keyHash } }));
    return out.Item as ApiKeyRecord | undefined;
  }

  async create(key: ApiKeyRecord): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: key, ConditionExpression: 'attribute_not_exists(key_hash)' }));
  }

  async listByApp(appId: string): Promise<ApiKeyRecord[]> {
    const keys: ApiKeyRecord[] = [];
    const pages = paginateQuery(
      { client: this.db },
      { TableName: this.tableName, IndexName: this.byAppIndex, KeyConditionExpression: 'app_id = :app', ExpressionAttributeValues: { ':app': appId } },
    );
    for await (const page of pages) keys.push(...((page.Items ?? []) as ApiKeyRecord[]));
    return keys;
  }

  async revoke(appId: string, keyId: string, at: Date): Promise<boolean> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: this.byAppIndex,
        KeyConditionExpression: 'app_id = :app AND key_id = :key',
        ExpressionAttributeValues: { ':app': appId, ':key': keyId },
      }),
    );
    const key = out.Items?.[0] as ApiKeyRecord | undefined;
    if (!key) return false;
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { key_hash: key.key_hash },
          ConditionExpression: 'attribute_exists(key_hash) AND app_id = :app',
          UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :at)',
          ExpressionAttributeValues: { ':app': appId, ':at': at.toISOString() },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
