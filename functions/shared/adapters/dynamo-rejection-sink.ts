import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Rejection, RejectionSink } from '../domain/timeline';

const RETENTION_DAYS = 14;

export class DynamoRejectionSink implements RejectionSink {
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
}
