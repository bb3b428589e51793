/**
 * Portal sessions by the SHA-256 of the session id. The TTL is moved with
 * `last_seen`, so DynamoDB sweeps a session soon after it can no longer be
 * used (idle or past its absolute end); until then `sessionIsLive` refuses it.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { sessionEndsAt, ttlOf, type PortalSession, type SessionStore } from '../domain/enterprise';

export class DynamoSessionStore implements SessionStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(session: PortalSession): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...session, ttl: ttlOf(sessionEndsAt(session)) },
        ConditionExpression: 'attribute_not_exists(session_hash)',
      }),
    );
  }

  async get(sessionHash: string): Promise<PortalSession | undefined> {
    // Consistent: the portal page right after the sign-in must find the session just written.
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { session_hash: sessionHash }, ConsistentRead: true }));
    return out.Item ? withoutTtl(out.Item) : undefined;
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
          ConditionExpression: 'attribute_exists(session_hash) AND (attribute_not_exists(last_seen) OR last_seen < :seen)',
          UpdateExpression: 'SET last_seen = :seen, #ttl = :ttl',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':seen': lastSeen, ':ttl': ttlOf(sessionEndsAt({ ...current, last_seen: lastSeen })) },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async delete(sessionHash: string): Promise<PortalSession | undefined> {
    const out = await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { session_hash: sessionHash }, ReturnValues: 'ALL_OLD' }));
    return out.Attributes ? withoutTtl(out.Attributes) : undefined;
  }
}

function withoutTtl(item: Record<string, NativeAttributeValue>): PortalSession {
  // An item put() wrote: the session and its TTL.
  const { ttl: _ttl, ...session } = item as PortalSession & { ttl: number };
  return session;
}
