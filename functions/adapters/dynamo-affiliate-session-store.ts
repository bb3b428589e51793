/**
 * Affiliate portal sessions by the SHA-256 of the session id. The TTL is
 * moved with `last_seen`, so DynamoDB sweeps a session soon after it can no
 * longer be used; until then `sessionState` is what refuses it.
 */
import {
  DeleteCommand,
  GetCommand,
  paginateQuery,
  PutCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type NativeAttributeValue,
} from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { sessionEndsAt, type AffiliateSession, type AffiliateSessionStore } from '../domain/affiliate-portal';
import { ttlOf } from '../domain/enterprise';
import { batchWriteAll } from './batch-write';

const ownerOf = (appId: string, affiliateId: string) => `${appId}#${affiliateId}`;
const BY_AFFILIATE = 'by-affiliate';

export class DynamoAffiliateSessionStore implements AffiliateSessionStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(session: AffiliateSession): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...session, owner: ownerOf(session.app_id, session.affiliate_id), ttl: ttlOf(sessionEndsAt(session)) },
        ConditionExpression: 'attribute_not_exists(session_hash)',
      }),
    );
  }

  async get(sessionHash: string): Promise<AffiliateSession | undefined> {
    // Consistent: the page right after the sign-in must find the session just written.
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { session_hash: sessionHash }, ConsistentRead: true }));
    return out.Item ? toSession(out.Item) : undefined;
  }

  async touch(sessionHash: string, at: Date): Promise<void> {
    const current = await this.get(sessionHash);
    if (!current) return;
    const lastSeen = at.toISOString();
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { session_hash: sessionHash },
          // Never resurrect a session signed out meanwhile, nor move last_seen back.
          ConditionExpression: 'attribute_exists(session_hash) AND last_seen < :seen',
          UpdateExpression: 'SET last_seen = :seen, #ttl = :ttl',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':seen': lastSeen, ':ttl': ttlOf(sessionEndsAt({ ...current, last_seen: lastSeen })) },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async delete(sessionHash: string): Promise<AffiliateSession | undefined> {
    const out = await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { session_hash: sessionHash }, ReturnValues: 'ALL_OLD' }));
    return out.Attributes ? toSession(out.Attributes) : undefined;
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

function toSession(item: Record<string, NativeAttributeValue>): AffiliateSession {
  // An item put() wrote: the session, its owner (for the index) and its TTL.
  const { ttl: _ttl, owner: _owner, ...session } = item as AffiliateSession & { owner: string; ttl: number };
  return session;
}
