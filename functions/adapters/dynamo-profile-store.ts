import { GetCommand, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { StoredProfile } from '../domain/profile-state';
import type { ProfileStore } from '../domain/timeline';
import { batchGetAll, putVersioned, unprocessedRetry } from './batch-write';
import type { RetryPolicy } from './retry';

/** An item put() wrote: the stored profile itself, keys and version included. */
const storedProfile = (item: Record<string, NativeAttributeValue>) => item as StoredProfile;

export class DynamoProfileStore implements ProfileStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly retry: RetryPolicy = unprocessedRetry,
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

  async put(profile: StoredProfile, expectedVersion: number | undefined): Promise<boolean> {
    return putVersioned(this.db, this.tableName, profile, expectedVersion);
  }
}
