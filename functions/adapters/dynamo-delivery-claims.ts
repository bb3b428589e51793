/**
 * DeliveryClaims in DynamoDB: one item per (application and notification,
 * subscription), put only if absent, so of two sends of one notification to
 * one subscription exactly one claims it. Items expire by TTL after the
 * claim period (pushLimits.deliveryClaimSeconds).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { pushLimits, type DeliveryClaims } from '../domain/push';

export class DynamoDeliveryClaims implements DeliveryClaims {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async claim(appId: string, notificationId: string, subscription: string): Promise<boolean> {
    const at = this.now();
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            pk: `${appId}#${notificationId}`,
            subscription,
            claimed_at: at.toISOString(),
            expires_at: Math.floor(at.getTime() / 1000) + pushLimits.deliveryClaimSeconds,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async release(appId: string, notificationId: string, subscription: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: `${appId}#${notificationId}`, subscription } }));
  }
}
