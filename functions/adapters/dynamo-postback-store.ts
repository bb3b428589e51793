/**
 * Postbacks on DynamoDB: the URL template on the affiliate item (affiliates
 * table, with the events it receives), and in the funnel table the outbox
 * (the sparse `postbacks-due` index over registration, FTD, CPA and deposit rows) and the delivery log
 * (`a#<app>#<affiliate>`, `pb#<at>#<event_id>`, expiring after 90 days).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { affiliatePk } from '../domain/funnel';
import {
  postbackLimits,
  postbackLogSk,
  postbackQueue,
  type DuePostback,
  type PostbackLog,
  type PostbackLogEntry,
  type PostbackEvent,
  type PostbackOutbox,
  type PostbackSettingsStore,
} from '../domain/postbacks';
import { affiliateSortKey } from './dynamo-affiliate-store';

const dueIndex = 'postbacks-due';

const ignoreConditionFailed = (error: unknown) => {
  if (!(error instanceof ConditionalCheckFailedException)) throw error;
};

export class DynamoPostbackSettings implements PostbackSettingsStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(appId: string, affiliateId: string): Promise<{ exists: boolean; postback_url?: string; postback_events?: string[] }> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { app_id: appId, sk: affiliateSortKey(affiliateId) },
        ProjectionExpression: 'sk, postback_url, postback_events',
      }),
    );
    if (!out.Item) return { exists: false };
    return {
      exists: true,
      ...(typeof out.Item.postback_url === 'string' ? { postback_url: out.Item.postback_url } : {}),
      ...(Array.isArray(out.Item.postback_events) ? { postback_events: out.Item.postback_events as string[] } : {}),
    };
  }

  setEvents(appId: string, affiliateId: string, events: PostbackEvent[]): Promise<boolean> {
    // A list, not a string set: a set cannot be empty, and "none" is a choice.
    return this.updateExisting(appId, affiliateId, { UpdateExpression: 'SET postback_events = :events', ExpressionAttributeValues: { ':events': events } });
  }

  set(appId: string, affiliateId: string, postbackUrl: string | undefined): Promise<boolean> {
    return this.updateExisting(
      appId,
      affiliateId,
      postbackUrl === undefined
        ? { UpdateExpression: 'REMOVE postback_url' }
        : { UpdateExpression: 'SET postback_url = :url', ExpressionAttributeValues: { ':url': postbackUrl } },
    );
  }

  /** Applies the update to the affiliate's item if it exists; false when it does not. */
  private async updateExisting(
    appId: string,
    affiliateId: string,
    update: { UpdateExpression: string; ExpressionAttributeValues?: Record<string, unknown> },
  ): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { app_id: appId, sk: affiliateSortKey(affiliateId) },
          ConditionExpression: 'attribute_exists(sk)',
          ...update,
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}

export class DynamoPostbackOutbox implements PostbackOutbox, PostbackLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async due(now: Date, limit: number): Promise<DuePostback[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: dueIndex,
        KeyConditionExpression: 'postback_queue = :queue AND postback_due <= :now',
        ExpressionAttributeValues: { ':queue': postbackQueue, ':now': now.toISOString() },
        Limit: limit,
      }),
    );
    return (out.Items ?? []) as DuePostback[];
  }

  async claim(row: Pick<DuePostback, 'pk' | 'sk'>, seenDue: string, leaseUntil: string): Promise<number | undefined> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: row.pk, sk: row.sk },
          ConditionExpression: 'postback_due = :seen',
          UpdateExpression: 'SET postback_due = :lease ADD postback_attempts :one',
          ExpressionAttributeValues: { ':seen': seenDue, ':lease': leaseUntil, ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return out.Attributes?.postback_attempts as number;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  async done(row: Pick<DuePostback, 'pk' | 'sk'>, claimedDue: string): Promise<void> {
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: row.pk, sk: row.sk },
          // Never creates a row; leaves one the funnel consumer marked again meanwhile.
          ConditionExpression: 'postback_due = :claimed',
          UpdateExpression: 'REMOVE postback_queue, postback_due',
          ExpressionAttributeValues: { ':claimed': claimedDue },
        }),
      )
      .catch(ignoreConditionFailed);
  }

  async reschedule(row: Pick<DuePostback, 'pk' | 'sk'>, claimedDue: string, at: string): Promise<void> {
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: row.pk, sk: row.sk },
          ConditionExpression: 'postback_due = :claimed',
          UpdateExpression: 'SET postback_due = :at',
          ExpressionAttributeValues: { ':claimed': claimedDue, ':at': at },
        }),
      )
      .catch(ignoreConditionFailed);
  }

  async append(appId: string, affiliateId: string, entry: PostbackLogEntry): Promise<void> {
    const expiresAt = Math.floor(Date.parse(entry.at) / 1000) + postbackLimits.logDays * 24 * 60 * 60;
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: affiliatePk(appId, affiliateId), sk: postbackLogSk(entry.at, entry.event_id), ...entry, expires_at: expiresAt },
      }),
    );
  }

  async recent(appId: string, affiliateId: string, limit: number): Promise<PostbackLogEntry[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': affiliatePk(appId, affiliateId), ':prefix': 'pb#' },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (out.Items ?? []).map(({ pk: _pk, sk: _sk, expires_at: _expires, ...entry }) => entry as PostbackLogEntry);
  }
}
