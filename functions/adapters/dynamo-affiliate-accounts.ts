/**
 * The affiliates as the portal sees them, on the affiliates table
 * (dynamo-affiliate-store.ts has its layout): a login is looked up through
 * the username claim, then the email claim, then the affiliate item.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { AffiliateAccounts, AffiliateProfile } from '../domain/affiliate-portal';
import { affiliateContactFields, type AffiliateRecord } from '../domain/affiliates';
import { affiliateSortKey, claimSortKey } from './dynamo-affiliate-store';

export class DynamoAffiliateAccounts implements AffiliateAccounts {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private async item(appId: string, sk: string): Promise<Record<string, NativeAttributeValue> | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { app_id: appId, sk }, ConsistentRead: true }));
    return out.Item;
  }

  async get(appId: string, affiliateId: string): Promise<AffiliateRecord | undefined> {
    const item = await this.item(appId, affiliateSortKey(affiliateId));
    if (!item) return undefined;
    // An affiliate item as DynamoAffiliateStore.register writes it: the record and its sort key.
    const { sk: _sk, ...affiliate } = item as AffiliateRecord & { sk: string };
    return affiliate;
  }

  private async byClaim(appId: string, field: 'username' | 'email', value: string): Promise<AffiliateRecord | undefined> {
    const claim = await this.item(appId, claimSortKey(field, value));
    return claim ? this.get(appId, claim.affiliate_id as string) : undefined;
  }

  async findByLogin(appId: string, login: string): Promise<AffiliateRecord | undefined> {
    return (await this.byClaim(appId, 'username', login)) ?? (await this.byClaim(appId, 'email', login));
  }

  findByEmail(appId: string, email: string): Promise<AffiliateRecord | undefined> {
    return this.byClaim(appId, 'email', email);
  }

  async setPasswordHash(appId: string, affiliateId: string, passwordHash: string, at: Date): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { app_id: appId, sk: affiliateSortKey(affiliateId) },
        ConditionExpression: 'attribute_exists(sk)',
        UpdateExpression: 'SET password_hash = :hash, password_changed_at = :at',
        ExpressionAttributeValues: { ':hash': passwordHash, ':at': at.toISOString() },
      }),
    );
  }

  /** One write: the names and given contacts SET, the contacts not given REMOVEd. */
  async setProfile(appId: string, affiliateId: string, profile: AffiliateProfile, at: Date): Promise<void> {
    const given = Object.entries(profile).filter(([, value]) => value !== undefined);
    const removed = affiliateContactFields.filter((field) => profile[field] === undefined);
    const names = { ...Object.fromEntries(given.map(([field], i) => [`#s${i}`, field])), ...Object.fromEntries(removed.map((field, i) => [`#r${i}`, field])) };
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { app_id: appId, sk: affiliateSortKey(affiliateId) },
        ConditionExpression: 'attribute_exists(sk)',
        UpdateExpression: [
          `SET ${[...given.map((_, i) => `#s${i} = :s${i}`), 'profile_changed_at = :at'].join(', ')}`,
          removed.length > 0 ? `REMOVE ${removed.map((_, i) => `#r${i}`).join(', ')}` : '',
        ].join(' '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...Object.fromEntries(given.map(([, value], i) => [`:s${i}`, value])), ':at': at.toISOString() },
      }),
    );
  }
}
