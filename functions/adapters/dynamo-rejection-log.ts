import { DeleteCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ProfileRejections, Rejection, RejectionLog, RejectionPage } from '../domain/timeline';

const RETENTION_DAYS = 14;

/** The same stream record always gets the same id: a redelivered rejection is kept once. */
const rejectionId = (rejection: Rejection) => `${rejection.received_at}#${rejection.shard}#${rejection.seq}`;

export class DynamoRejectionLog implements RejectionLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(rejection: Rejection): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...rejection,
          rejection_id: rejectionId(rejection),
          expires_at: Math.floor(Date.parse(rejection.rejected_at) / 1000) + RETENTION_DAYS * 86_400,
        },
      }),
    );
  }

  async remove(rejections: Rejection[]): Promise<void> {
    for (const rejection of rejections) {
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { app_id: rejection.app_id, rejection_id: rejectionId(rejection) } }));
    }
  }

  async list(appId: string, limit: number): Promise<Rejection[]> {
    return (await this.page(appId, limit)).rejections;
  }

  async page(appId: string, limit: number, after?: string): Promise<RejectionPage> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'app_id = :app',
        ExpressionAttributeValues: { ':app': appId },
        ScanIndexForward: false,
        Limit: limit,
        ...(after === undefined ? {} : { ExclusiveStartKey: { app_id: appId, rejection_id: after } }),
      }),
    );
    const rejections = ((out.Items ?? []) as (Rejection & { rejection_id?: string; expires_at?: number })[]).map(
      ({ rejection_id: _id, expires_at: _ttl, ...rejection }) => rejection,
    );
    const next = out.LastEvaluatedKey?.rejection_id;
    return { rejections, ...(typeof next === 'string' ? { next } : {}) };
  }

  /**
   * A player's rejections among the application's newest: rejections are kept
   * by application (14 days), so this reads the application's partition newest
   * first, at most `readBudget` items, and keeps the player's.
   */
  async listForProfile(appId: string, profileId: string, readBudget: number): Promise<ProfileRejections> {
    const found: Rejection[] = [];
    let start: Record<string, unknown> | undefined;
    let read = 0;
    // Not paginateQuery: each query asks only for what is left of the budget, and the loop stops when it is spent.
    do {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'app_id = :app',
          FilterExpression: 'profile_id = :profile',
          ExpressionAttributeValues: { ':app': appId, ':profile': profileId },
          ScanIndexForward: false,
          Limit: readBudget - read,
          ExclusiveStartKey: start,
        }),
      );
      found.push(...((out.Items ?? []) as Rejection[]));
      read += out.ScannedCount ?? 0;
      start = out.LastEvaluatedKey;
    } while (start !== undefined && read < readBudget);
    return { rejections: found, complete: start === undefined };
  }
}
