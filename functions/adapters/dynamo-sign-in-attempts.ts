/**
 * Failed sign-ins per key in fixed windows, one item per key: a conditional
 * UpdateItem adds one to a live window; when the window has ended (or there
 * is none) a conditional put opens a new one. Concurrent failures each count:
 * the update is atomic, and of two racing opens one wins and the other counts
 * into it. TTL sweeps ended windows.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AttemptWindow, SignInAttempts } from '../domain/affiliate-portal';
import { ttlOf } from '../domain/enterprise';

export class DynamoSignInAttempts implements SignInAttempts {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async current(keys: string[], now: Date): Promise<(AttemptWindow | undefined)[]> {
    const out = await this.db.send(
      new BatchGetCommand({
        RequestItems: { [this.tableName]: { Keys: keys.map((attempt_key) => ({ attempt_key })), ConsistentRead: true } },
      }),
    );
    if (Object.keys(out.UnprocessedKeys ?? {}).length > 0) throw new Error('sign-in attempts could not be read');
    const items = out.Responses?.[this.tableName] ?? [];
    return keys.map((key) => {
      const item = items.find((candidate) => candidate.attempt_key === key);
      if (!item || (item.ends_at as string) <= now.toISOString()) return undefined;
      return { failures: item.failures as number, ends_at: item.ends_at as string };
    });
  }

  async recordFailure(key: string, now: Date, windowMs: number): Promise<AttemptWindow> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const out = await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { attempt_key: key },
            ConditionExpression: 'ends_at > :now',
            UpdateExpression: 'ADD failures :one',
            ExpressionAttributeValues: { ':now': now.toISOString(), ':one': 1 },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return { failures: out.Attributes!.failures as number, ends_at: out.Attributes!.ends_at as string };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
      const endsAt = new Date(now.getTime() + windowMs);
      try {
        await this.db.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { attempt_key: key, failures: 1, ends_at: endsAt.toISOString(), ttl: ttlOf(endsAt) },
            // Only over an ended window: a window another request just opened is counted into instead.
            ConditionExpression: 'attribute_not_exists(attempt_key) OR ends_at <= :now',
            ExpressionAttributeValues: { ':now': now.toISOString() },
          }),
        );
        return { failures: 1, ends_at: endsAt.toISOString() };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
    throw new Error('a failed sign-in could not be counted');
  }

  async clear(key: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { attempt_key: key } }));
  }
}
