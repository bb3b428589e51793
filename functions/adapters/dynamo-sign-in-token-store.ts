/**
 * Sign-in tokens by the SHA-256 of the token. A token is consumed by one
 * conditional update (unused and not expired → used), so of two concurrent
 * uses exactly one wins; a refused update says, from the item as it was, why.
 * DynamoDB's TTL removes items some time after `ttl`; until then the
 * condition on `expires_at` is what refuses them.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ttlOf, type SignInTokenStore, type StoredSignInToken, type TokenConsumption } from '../domain/enterprise';

export class DynamoSignInTokenStore implements SignInTokenStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(token: StoredSignInToken): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...token, ttl: ttlOf(new Date(token.expires_at)) },
        ConditionExpression: 'attribute_not_exists(token_hash)',
      }),
    );
  }

  async consume(tokenHash: string, now: Date): Promise<TokenConsumption> {
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
      const { ttl: _ttl, ...token } = out.Attributes as StoredSignInToken & { ttl: number };
      return { outcome: 'consumed', token };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // The item as it was, in DynamoDB's wire form: only which attributes it has matters here.
      const previous = error.Item;
      if (!previous) return { outcome: 'unknown' };
      return { outcome: previous.used_at ? 'used' : 'expired' };
    }
  }
}
