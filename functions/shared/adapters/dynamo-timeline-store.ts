import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TimelineEntry, TimelinePage, TimelineStore } from '../domain/timeline';
import { batchWriteAll } from './batch-write';

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

  async page(pk: string, limit: number, start?: Record<string, string>): Promise<TimelinePage> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: this.byTimeIndex,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
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
