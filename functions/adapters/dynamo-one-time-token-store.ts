/**
 * One-time tokens by the SHA-256 of the token, on the table it is given (the
 * console's sign-in tokens, the portal's reset tokens). A token is consumed by
 * one conditional update (unused and not expired → used), so of two concurrent
 * uses exactly one wins; a refused update says, from the item as it was, why.
 * DynamoDB's TTL removes items some time after `ttl`; until then the
 * condition on `expires_at` is what refuses them.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { tokenUse, type OneTimeToken, type OneTimeTokenStore, type TokenConsumption } from '../domain/one-time-tokens';
import { ttlOf } from '../domain/sessions';

export class DynamoOneTimeTokenStore<T extends OneTimeToken> implements OneTimeTokenStore<T> {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(token: T): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...token, ttl: ttlOf(new Date(token.expires_at)) },
        ConditionExpression: 'attribute_not_exists(token_hash)',
      }),
    );
  }

  async peek(tokenHash: string, now: Date): Promise<TokenConsumption<T>> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { token_hash: tokenHash }, ConsistentRead: true }));
    return tokenUse(out.Item ? withoutTtl<T>(out.Item) : undefined, now);
  }

  async consume(tokenHash: string, now: Date): Promise<TokenConsumption<T>> {
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
      // ALL_NEW: a successful update answers the item as it now is.
      return { outcome: 'consumed', token: withoutTtl<T>(out.Attributes!) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // The item as it was, in DynamoDB's wire form: only which attributes it has matters here.
      const previous = error.Item;
      if (!previous) return { outcome: 'unknown' };
      return { outcome: previous.used_at ? 'used' : 'expired' };
    }
  }
}

function withoutTtl<T>(item: Record<string, NativeAttributeValue>): T {
  // An item put() wrote: the token and its TTL.
  const { ttl: _ttl, ...token } = item;
  return token as T;
}
