import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SecretStore } from '../domain/secrets';

/** Secrets in a DynamoDB table: the local stack's stand-in for SSM Parameter Store (functions/manifest/secrets.ts). */
export class DynamoSecretStore implements SecretStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(name: string): Promise<string | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { name }, ConsistentRead: true }));
    return typeof out.Item?.value === 'string' ? out.Item.value : undefined;
  }

  /** The name alone is read back, as SSM's DescribeParameters answers in AWS. */
  async exists(name: string): Promise<boolean> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { name },
        ConsistentRead: true,
        ProjectionExpression: '#name',
        ExpressionAttributeNames: { '#name': 'name' },
      }),
    );
    return out.Item !== undefined;
  }

  async put(name: string, value: string): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { name, value } }));
  }

  async create(name: string, value: string): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { name, value },
          ConditionExpression: 'attribute_not_exists(#name)',
          ExpressionAttributeNames: { '#name': 'name' },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
