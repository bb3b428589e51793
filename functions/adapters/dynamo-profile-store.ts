import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { figuresPk, registrationDaySk, totalSk, type PlayerCountChange } from '../domain/figures';
import type { StoredProfile } from '../domain/profile-state';
import type { ProfileStore } from '../domain/timeline';
import { batchGetAll, putVersioned, unprocessedRetry } from './batch-write';
import { withRetry, type RetryPolicy } from './retry';
import { cancellationReasons as reasonsOf, cancelledByConflict as conflicted } from './transactions';

/** An item put() wrote: the stored profile itself, keys and version included. */
const storedProfile = (item: Record<string, NativeAttributeValue>) => item as StoredProfile;

/** Every shard's consumer may register a player of one application at once: its counter is one item. */
const counterConflictRetry: RetryPolicy = { maxAttempts: 8, baseDelayMs: 20, maxDelayMs: 1000 };

export class DynamoProfileStore implements ProfileStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly retry: RetryPolicy = unprocessedRetry,
    /** The `figures` table: only the profile consumer, which moves the players counter, is given one. */
    private readonly figuresTable?: string,
    private readonly conflictRetry: RetryPolicy = counterConflictRetry,
  ) {}

  async get(pk: string, consistent: boolean): Promise<StoredProfile | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk }, ConsistentRead: consistent }));
    return out.Item && storedProfile(out.Item);
  }

  async getMany(pks: string[], fields?: (keyof StoredProfile)[], consistent = false): Promise<Map<string, StoredProfile>> {
    const items = await batchGetAll(
      this.db,
      this.tableName,
      pks.map((pk) => ({ pk })),
      { consistent, fields, what: 'profile', retry: this.retry },
    );
    return new Map(items.map(storedProfile).map((profile) => [profile.pk, profile]));
  }

  async put(profile: StoredProfile, expectedVersion: number | undefined, count?: PlayerCountChange): Promise<boolean> {
    if (count === undefined) return putVersioned(this.db, this.tableName, profile, expectedVersion);
    if (this.figuresTable === undefined) throw new Error('this profile store has no figures table to count players in');
    const figures = this.figuresTable;
    const pk = figuresPk(count.app_id);
    // One transaction: the counters move if and only if the profile's conditional write takes.
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: this.tableName,
            Item: profile,
            ...(expectedVersion === undefined
              ? { ConditionExpression: 'attribute_not_exists(pk)' }
              : { ConditionExpression: 'version = :expected', ExpressionAttributeValues: { ':expected': expectedVersion } }),
          },
        },
        { Update: { TableName: figures, Key: { pk, sk: totalSk }, UpdateExpression: 'ADD players :n', ExpressionAttributeValues: { ':n': count.players } } },
        ...(count.registered_on === undefined
          ? []
          : [
              {
                Update: {
                  TableName: figures,
                  Key: { pk, sk: registrationDaySk(count.registered_on) },
                  UpdateExpression: 'ADD registrations :one',
                  ExpressionAttributeValues: { ':one': 1 },
                },
              },
            ]),
      ],
    });
    try {
      // p-retry, not the SDK's retry strategy: the SDK does not retry a cancelled transaction.
      await withRetry(
        this.conflictRetry,
        (error) => !versionConflict(error) && conflicted(error),
        () => this.db.send(command),
      );
      return true;
    } catch (error) {
      if (versionConflict(error)) return false;
      throw error;
    }
  }
}

/** The profile's condition failed (reasons come in the order of the items, the profile first): someone wrote it meanwhile. */
const versionConflict = (error: unknown) => reasonsOf(error)[0]?.Code === 'ConditionalCheckFailed';
