import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PlayerDirectory, PlayerIdPage } from '../back-office/players';
import { partitionKey } from '../domain/stream-record';

/** An application's players through the profiles table's keys-only `by-app` index, in profile id order. */
export class DynamoPlayerDirectory implements PlayerDirectory {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly byAppIndex = 'by-app',
  ) {}

  async page(appId: string, options: { prefix?: string; limit: number; after?: string }): Promise<PlayerIdPage> {
    const prefix = options.prefix ? ' AND begins_with(profile_id, :prefix)' : '';
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: this.byAppIndex,
        KeyConditionExpression: `app_id = :app${prefix}`,
        ExpressionAttributeValues: { ':app': appId, ...(options.prefix ? { ':prefix': options.prefix } : {}) },
        Limit: options.limit,
        // The key of the item a page ends on: always of the caller's application, whatever the cursor said.
        ExclusiveStartKey: options.after === undefined ? undefined : { app_id: appId, profile_id: options.after, pk: partitionKey(appId, options.after) },
      }),
    );
    const last = out.LastEvaluatedKey?.profile_id as string | undefined;
    return { profileIds: (out.Items ?? []).map((item) => item.profile_id as string), ...(last === undefined ? {} : { last }) };
  }
}
