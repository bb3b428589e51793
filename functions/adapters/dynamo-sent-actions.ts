/**
 * SentActions in DynamoDB, beside the push delivery claims (the same table,
 * the same 48-hour TTL, one item per action: `app#bo#action_id`, sort key
 * `action`, which no subscription key can be). The claim is a put only if
 * absent, so of two calls with one action id exactly one sends.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ActionOutcome, ClaimedAction, SentActions } from '../back-office/messaging';
import { pushLimits } from '../domain/push';

const ACTION_SORT_KEY = 'action';

export class DynamoSentActions implements SentActions {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private key(appId: string, actionId: string) {
    return { pk: `${appId}#bo#${actionId}`, subscription: ACTION_SORT_KEY };
  }

  async claim(appId: string, actionId: string, fingerprint: string, at: Date): Promise<ClaimedAction | undefined> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...this.key(appId, actionId),
            fingerprint,
            claimed_at: at.toISOString(),
            expires_at: Math.floor(at.getTime() / 1000) + pushLimits.deliveryClaimSeconds,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return undefined;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.key(appId, actionId), ConsistentRead: true }));
    // Gone between the two calls (TTL): still not sent again.
    return { fingerprint: String(Item?.fingerprint ?? ''), ...(Item?.outcome ? { outcome: Item.outcome as ActionOutcome } : {}) };
  }

  async settle(appId: string, actionId: string, outcome: ActionOutcome): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.key(appId, actionId),
        UpdateExpression: 'SET outcome = :outcome',
        ExpressionAttributeValues: { ':outcome': outcome },
      }),
    );
  }

  async release(appId: string, actionId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: this.key(appId, actionId) }));
  }
}
