import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import pLimit from 'p-limit';
import type { TimelineEntry, TimelinePage, TimelineStore } from '../domain/timeline';
import { batchWriteAll } from './batch-write';

/** Conditional puts in flight at once: BatchWriteItem takes no condition, so each new entry is its own PutItem. */
export const PUTS_IN_FLIGHT = 25;

export class DynamoTimelineStore implements TimelineStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly byTimeIndex = 'by-time',
  ) {}

  async write(entries: TimelineEntry[]): Promise<void> {
    await batchWriteAll(
      this.db,
      this.tableName,
      entries.map((entry) => ({ PutRequest: { Item: entry } })),
    );
  }

  async writeNew(entries: TimelineEntry[]): Promise<number> {
    const limit = pLimit(PUTS_IN_FLIGHT);
    let failure: { error: unknown } | undefined;
    let stored = 0;
    await Promise.all(
      entries.map((entry) =>
        limit(async () => {
          // After a failure the batch fails anyway: queued puts are not sent, so no write outlives the call.
          if (failure) return;
          try {
            await this.db.send(new PutCommand({ TableName: this.tableName, Item: entry, ConditionExpression: 'attribute_not_exists(pk)' }));
            stored++;
          } catch (error) {
            // Already on the timeline (a redelivery or a re-send): the first one stored stays.
            if (error instanceof ConditionalCheckFailedException) return;
            failure ??= { error };
          }
        }),
      ),
    );
    if (failure) throw failure.error;
    return stored;
  }

  async page(pk: string, limit: number, start?: Record<string, string>, only?: { event: string }): Promise<TimelinePage> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: this.byTimeIndex,
        KeyConditionExpression: 'pk = :pk',
        // `limit` counts entries read, before the filter.
        ...(only ? { FilterExpression: 'event = :event' } : {}),
        ExpressionAttributeValues: { ':pk': pk, ...(only ? { ':event': only.event } : {}) },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: start,
      }),
    );
    return { entries: (out.Items ?? []) as TimelineEntry[], next: out.LastEvaluatedKey as Record<string, string> | undefined };
  }

  async walk(pk: string, limit: number, start?: Record<string, string>): Promise<TimelinePage> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        Limit: limit,
        ExclusiveStartKey: start,
      }),
    );
    return { entries: (out.Items ?? []) as TimelineEntry[], next: out.LastEvaluatedKey as Record<string, string> | undefined };
  }

  async remove(entries: Pick<TimelineEntry, 'pk' | 'insert_id'>[]): Promise<void> {
    await batchWriteAll(
      this.db,
      this.tableName,
      entries.map(({ pk, insert_id }) => ({ DeleteRequest: { Key: { pk, insert_id } } })),
    );
  }
}
