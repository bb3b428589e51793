import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { searchKey, searchPartition, type PlayerSearchIndex, type SearchField, type SearchHit, type SearchTerm } from '../domain/player-search';
import { batchWriteAll } from './batch-write';
import type { RetryPolicy } from './retry';

/** The players' search index (tables.playerSearch): BatchWriteItem of a player's terms, one bounded Query per field. */
export class DynamoPlayerSearch implements PlayerSearchIndex {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly retry?: RetryPolicy,
  ) {}

  async write(appId: string, profileId: string, change: { puts: SearchTerm[]; deletes: SearchTerm[] }): Promise<void> {
    // Keys only: a hit is checked against the profile, which holds everything else.
    const requests = [
      ...change.puts.map(({ field, term }) => ({ PutRequest: { Item: searchKey(appId, field, term, profileId) } })),
      ...change.deletes.map(({ field, term }) => ({ DeleteRequest: { Key: searchKey(appId, field, term, profileId) } })),
    ];
    if (requests.length > 0) await batchWriteAll(this.db, this.tableName, requests, this.retry);
  }

  async find(appId: string, field: SearchField, prefix: string, limit: number): Promise<SearchHit[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': searchPartition(appId, field, prefix), ':prefix': prefix },
        Limit: limit,
      }),
    );
    return (out.Items ?? []).map((item) => {
      const sk = item.sk as string;
      const cut = sk.indexOf('\u0000');
      return { term: sk.slice(0, cut), profileId: sk.slice(cut + 1) };
    });
  }
}
