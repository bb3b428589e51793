/**
 * Sessions by the SHA-256 of the session id, on the table it is given (the
 * console's and the affiliate portal's). The TTL is moved with `last_seen`,
 * so DynamoDB sweeps a session soon after it can no longer be used (idle or
 * past its absolute end); until then `sessionState` refuses it.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { sessionEndsAt, ttlOf, type SessionRecord, type SessionStore } from '../domain/sessions';

type Item = Record<string, NativeAttributeValue>;

export class DynamoSessionStore<S extends SessionRecord> implements SessionStore<S> {
  constructor(
    protected readonly db: DynamoDBDocumentClient,
    protected readonly tableName: string,
  ) {}

  /** The item put() writes: the session and its TTL (a subclass adds an index's key). */
  protected toItem(session: S): Item {
    return { ...session, ttl: ttlOf(sessionEndsAt(session)) };
  }

  /** The session an item put() wrote holds. */
  protected fromItem(item: Item): S {
    const { ttl: _ttl, ...session } = item;
    return session as S;
  }

  async put(session: S): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: this.toItem(session), ConditionExpression: 'attribute_not_exists(session_hash)' }));
  }

  async get(sessionHash: string): Promise<S | undefined> {
    // Consistent: the request right after the sign-in must find the session just written.
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { session_hash: sessionHash }, ConsistentRead: true }));
    return out.Item ? this.fromItem(out.Item) : undefined;
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
          // Never resurrect a session signed out meanwhile, nor move last_seen back (a console session from before
          // idle expiry has none yet).
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

  async delete(sessionHash: string): Promise<S | undefined> {
    const out = await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { session_hash: sessionHash }, ReturnValues: 'ALL_OLD' }));
    return out.Attributes ? this.fromItem(out.Attributes) : undefined;
  }
}
