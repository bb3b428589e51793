/** The back office's audit log: one partition per application, entries by `<time>#<random>`, read newest first; swept by TTL. */
import { PutCommand, QueryCommand, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { auditLimits, type AuditEntry, type AuditLog, type AuditPage } from '../domain/audit';

const DAY_SECONDS = 24 * 60 * 60;

export class DynamoAuditLog implements AuditLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async append(entry: AuditEntry): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...entry, sk: entry.entry_id, ttl: Math.ceil(Date.parse(entry.at) / 1000) + auditLimits.retentionDays * DAY_SECONDS },
        // An id is written once: a retried append never changes an entry.
        ConditionExpression: 'attribute_not_exists(sk)',
      }),
    );
  }

  /** One item more than asked tells whether a next page exists, so the last page never has a cursor. */
  async page(appId: string, options: { limit: number; cursor?: string }): Promise<AuditPage> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'app_id = :app',
        ExpressionAttributeValues: { ':app': appId },
        // The cursor is an entry id; the partition is the caller's application, so it reaches nothing else.
        ExclusiveStartKey: options.cursor === undefined ? undefined : { app_id: appId, sk: options.cursor },
        ScanIndexForward: false,
        Limit: options.limit + 1,
      }),
    );
    const entries = (out.Items ?? []).slice(0, options.limit).map(toEntry);
    const more = (out.Items ?? []).length > options.limit;
    return more ? { entries, cursor: entries[entries.length - 1].entry_id } : { entries };
  }
}

function toEntry(item: Record<string, NativeAttributeValue>): AuditEntry {
  // An item append() wrote: the entry, its sort key and its TTL.
  const { sk: _sk, ttl: _ttl, ...entry } = item as AuditEntry & { sk: string; ttl: number };
  return entry;
}
