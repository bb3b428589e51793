/**
 * Password-reset tokens by the SHA-256 of the token. Consumed by one
 * conditional update (unused and unexpired → used), so of two concurrent
 * uses exactly one wins; a refused update says, from the item as it was, why.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { ResetConsumption, ResetToken, ResetTokenStore } from '../domain/affiliate-portal';
import { ttlOf } from '../domain/enterprise';

export class DynamoResetTokenStore implements ResetTokenStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(token: ResetToken): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...token, ttl: ttlOf(new Date(token.expires_at)) },
        ConditionExpression: 'attribute_not_exists(token_hash)',
      }),
    );
  }

  async peek(tokenHash: string, now: Date): Promise<ResetConsumption> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { token_hash: tokenHash }, ConsistentRead: true }));
    if (!out.Item) return { outcome: 'unknown' };
    if (out.Item.used_at) return { outcome: 'used' };
    if ((out.Item.expires_at as string) <= now.toISOString()) return { outcome: 'expired' };
    return { outcome: 'consumed', token: withoutTtl(out.Item) };
  }

  async consume(tokenHash: string, now: Date): Promise<ResetConsumption> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { token_hash: tokenHash },
          ConditionExpression: 'attribute_exists(token_hash) AND attribute_not_exists(used_at) AND expires_at > :now',
          UpdateExpression: 'SET used_at = :now',
          ExpressionAttributeValues: { ':now': now.toISOString() },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { outcome: 'consumed', token: withoutTtl(out.Attributes!) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const previous = error.Item;
      if (!previous) return { outcome: 'unknown' };
      return { outcome: previous.used_at ? 'used' : 'expired' };
    }
  }
}

function withoutTtl(item: Record<string, NativeAttributeValue>): ResetToken {
  // An item put() wrote: the token and its TTL.
  const { ttl: _ttl, ...token } = item as ResetToken & { ttl: number };
  return token;
}
