/**
 * ClickClaims in DynamoDB, one table keyed by `claim`:
 * - one item per (link, visitor) claim key, put only when there is none or it
 *   has expired, so a visitor's clicks on a link count once per claim period
 *   however many arrive at once. TTL sweeps the items late; the condition on
 *   `expires_at` is what decides;
 * - one item per (link, address, day) key counting its clicks, added to only
 *   below the limit (the day is in the key, so no item is ever reused);
 * - the visitor-cookie key, in one item under a name no hash can be, put once
 *   on the condition that there is none and never expiring.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ClickClaims } from '../domain/tracking-links';

const epochSeconds = (at: Date) => Math.floor(at.getTime() / 1000);
/** Claim keys are 64 hex digits: this name is none of them. */
const COOKIE_KEY_ITEM = 'visitor-cookie-key';

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

  async countWithin(key: string, limit: number, expiresAt: Date): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { claim: key },
          UpdateExpression: 'ADD clicks :one SET expires_at = :expires',
          ConditionExpression: 'attribute_not_exists(clicks) OR clicks < :limit',
          ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': epochSeconds(expiresAt) },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async uncount(key: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { claim: key },
          UpdateExpression: 'ADD clicks :less',
          ConditionExpression: 'clicks > :zero',
          ExpressionAttributeValues: { ':less': -1, ':zero': 0 },
        }),
      );
    } catch (error) {
      // Nothing counted there (swept already): nothing to take back.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async visitorCookieKey(candidate: string): Promise<string> {
    const stored = async () =>
      (await this.db.send(new GetCommand({ TableName: this.tableName, Key: { claim: COOKIE_KEY_ITEM }, ConsistentRead: true }))).Item?.key as
        | string
        | undefined;
    const found = await stored();
    if (found) return found;
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { claim: COOKIE_KEY_ITEM, key: candidate },
          ConditionExpression: 'attribute_not_exists(claim)',
        }),
      );
      return candidate;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // Another container stored one first: that is the stack's key.
      const theirs = await stored();
      if (!theirs) throw error;
      return theirs;
    }
  }
}
