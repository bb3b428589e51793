/**
 * The affiliate portal's sessions: the sessions' store (DynamoSessionStore)
 * with each item's `owner` (`app_id#affiliate_id`), the key of the
 * `by-affiliate` index through which a password reset ends all of an
 * affiliate's sessions.
 */
import { paginateQuery, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { AffiliateSession, AffiliateSessionStore } from '../domain/affiliate-portal';
import { batchWriteAll } from './batch-write';
import { DynamoSessionStore } from './dynamo-session-store';

const ownerOf = (appId: string, affiliateId: string) => `${appId}#${affiliateId}`;
const BY_AFFILIATE = 'by-affiliate';

export class DynamoAffiliateSessionStore extends DynamoSessionStore<AffiliateSession> implements AffiliateSessionStore {
  protected override toItem(session: AffiliateSession): Record<string, NativeAttributeValue> {
    return { ...super.toItem(session), owner: ownerOf(session.app_id, session.affiliate_id) };
  }

  protected override fromItem(item: Record<string, NativeAttributeValue>): AffiliateSession {
    const { owner: _owner, ...rest } = item;
    return super.fromItem(rest);
  }

  async deleteAllOf(appId: string, affiliateId: string): Promise<number> {
    const hashes: string[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        IndexName: BY_AFFILIATE,
        KeyConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': ownerOf(appId, affiliateId) },
        ProjectionExpression: 'session_hash',
      },
    );
    for await (const page of pages) hashes.push(...(page.Items ?? []).map((item) => item.session_hash as string));
    await batchWriteAll(
      this.db,
      this.tableName,
      hashes.map((session_hash) => ({ DeleteRequest: { Key: { session_hash } } })),
    );
    return hashes.length;
  }
}
