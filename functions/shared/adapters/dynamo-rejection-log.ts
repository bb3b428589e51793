import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Rejection, RejectionLog } from '../domain/timeline';

const RETENTION_DAYS = 14;

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
          // The same stream record always gets the same id: a redelivered rejection is kept once.
          rejection_id: `${rejection.received_at}#${rejection.shard}#${rejection.seq}`,
          expires_at: Math.floor(Date.parse(rejection.rejected_at) / 1000) + RETENTION_DAYS * 86_400,
        },
      }),
    );
  }

  async list(appId: string, limit: number): Promise<Rejection[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'app_id = :app',
        ExpressionAttributeValues: { ':app': appId },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (out.Items ?? []) as Rejection[];
  }
}
