/** Portal sessions by the SHA-256 of the session id; DynamoDB's TTL sweeps expired ones. */
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ttlOf, type PortalSession, type SessionStore } from '../domain/enterprise';

export class DynamoSessionStore implements SessionStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(session: PortalSession): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...session, ttl: ttlOf(new Date(session.expires_at)) },
        ConditionExpression: 'attribute_not_exists(session_hash)',
      }),
    );
  }

  async get(sessionHash: string): Promise<PortalSession | undefined> {
    // Consistent: the portal page right after the sign-in must find the session just written.
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { session_hash: sessionHash }, ConsistentRead: true }),
    );
    return out.Item ? withoutTtl(out.Item) : undefined;
  }

  async delete(sessionHash: string): Promise<PortalSession | undefined> {
    const out = await this.db.send(
      new DeleteCommand({ TableName: this.tableName, Key: { session_hash: sessionHash }, ReturnValues: 'ALL_OLD' }),
    );
    return out.Attributes ? withoutTtl(out.Attributes) : undefined;
  }
}

function withoutTtl(item: Record<string, unknown>): PortalSession {
  const { ttl: _ttl, ...session } = item;
  return session as unknown as PortalSession;
}
