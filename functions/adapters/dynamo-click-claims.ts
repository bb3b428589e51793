/**
 * ClickClaims in DynamoDB: one item per (link, visitor) claim key, put only
 * when there is none or it has expired, so a visitor's clicks on a link count
 * once per claim period however many arrive at once. TTL sweeps the items
 * late; the condition on `expires_at` is what decides.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ClickClaims } from '../domain/tracking-links';

const epochSeconds = (at: Date) => Math.floor(at.getTime() / 1000);

export class DynamoClickClaims implements ClickClaims {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async claim(key: string, now: Date, expiresAt: Date): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { claim: key, expires_at: epochSeconds(expiresAt) },
          ConditionExpression: 'attribute_not_exists(claim) OR expires_at <= :now',
          ExpressionAttributeValues: { ':now': epochSeconds(now) },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async release(key: string, expiresAt: Date): Promise<void> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { claim: key },
          ConditionExpression: 'expires_at = :mine',
          ExpressionAttributeValues: { ':mine': epochSeconds(expiresAt) },
        }),
      );
    } catch (error) {
      // Another click claimed it since: that claim is not ours to give up.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
