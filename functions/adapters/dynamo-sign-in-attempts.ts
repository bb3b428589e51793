/**
 * Sign-in attempts per key in fixed windows, one item per key: `attempts`
 * (counted before a password is checked, given back by a success) and
 * `failures`. An attempt is admitted by a conditional UpdateItem that adds one
 * only while the live window holds fewer than the limit, so of attempts made
 * at once no more than the limit get through; when the window has ended (or
 * there is none) a conditional put opens a new one, and of two racing opens
 * one wins and the other counts into it. TTL sweeps ended windows.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Admission, AttemptWindow, SignInAttempts } from '../domain/affiliate-portal';
import { ttlOf } from '../domain/sessions';

// Items are written only by this adapter, in this shape.
type Item = Record<string, unknown>;

function windowOf(item: Item): AttemptWindow {
  // A window written before attempts were counted holds only failures, each of which was an attempt.
  const failures = (item.failures as number | undefined) ?? 0;
  return { attempts: (item.attempts as number | undefined) ?? failures, failures, ends_at: item.ends_at as string };
}

const refusedCondition = (error: unknown): boolean => error instanceof ConditionalCheckFailedException;

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
      return item && (item.ends_at as string) > now.toISOString() ? windowOf(item) : undefined;
    });
  }

  async admit(key: string, limit: number, now: Date, windowMs: number): Promise<Admission> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const out = await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { attempt_key: key },
            ConditionExpression: 'ends_at > :now AND attempts < :limit',
            UpdateExpression: 'ADD attempts :one',
            ExpressionAttributeValues: { ':now': now.toISOString(), ':limit': limit, ':one': 1 },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return { admitted: true, window: windowOf(out.Attributes ?? {}) };
      } catch (error) {
        if (!refusedCondition(error)) throw error;
      }
      // Refused: a live window at its limit, or no live window to count into.
      const found = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { attempt_key: key }, ConsistentRead: true }));
      if (found.Item && (found.Item.ends_at as string) > now.toISOString()) {
        const window = windowOf(found.Item);
        // A window from before attempts were counted (at most one window length old) cannot be counted into: it refuses until it ends.
        if (window.attempts >= limit || found.Item.attempts === undefined) return { admitted: false, window };
        // An attempt was given back in between: try again.
        continue;
      }
      const endsAt = new Date(now.getTime() + windowMs).toISOString();
      try {
        await this.db.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { attempt_key: key, attempts: 1, failures: 0, ends_at: endsAt, ttl: ttlOf(new Date(endsAt)) },
            // Only over an ended window: a window another request just opened is counted into instead.
            ConditionExpression: 'attribute_not_exists(attempt_key) OR ends_at <= :now',
            ExpressionAttributeValues: { ':now': now.toISOString() },
          }),
        );
        return { admitted: true, window: { attempts: 1, failures: 0, ends_at: endsAt } };
      } catch (error) {
        if (!refusedCondition(error)) throw error;
      }
    }
    throw new Error('a sign-in attempt could not be counted');
  }

  async release(key: string, endsAt: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { attempt_key: key },
          // The window it was counted in, not a later one (nor a cleared key, which has nothing to give back).
          ConditionExpression: 'ends_at = :ends AND attempts > :zero',
          UpdateExpression: 'ADD attempts :minusOne',
          ExpressionAttributeValues: { ':ends': endsAt, ':zero': 0, ':minusOne': -1 },
        }),
      );
    } catch (error) {
      if (!refusedCondition(error)) throw error;
    }
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
        return windowOf(out.Attributes ?? {});
      } catch (error) {
        if (!refusedCondition(error)) throw error;
      }
      const endsAt = new Date(now.getTime() + windowMs);
      try {
        await this.db.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { attempt_key: key, attempts: 1, failures: 1, ends_at: endsAt.toISOString(), ttl: ttlOf(endsAt) },
            ConditionExpression: 'attribute_not_exists(attempt_key) OR ends_at <= :now',
            ExpressionAttributeValues: { ':now': now.toISOString() },
          }),
        );
        return { attempts: 1, failures: 1, ends_at: endsAt.toISOString() };
      } catch (error) {
        if (!refusedCondition(error)) throw error;
      }
    }
    throw new Error('a failed sign-in could not be counted');
  }

  async clear(key: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { attempt_key: key } }));
  }
}
