/**
 * AffiliateStore on DynamoDB. One partition per application (`app_id`), three
 * kinds of item by sort key:
 *
 *   affiliate#<affiliate_id>     the affiliate
 *   email#<uniqueness key>       claims the email for that affiliate
 *   username#<uniqueness key>    claims the username
 *   plan#<plan_id>               a commission plan (./dynamo-plan-store.ts)
 *
 * A registration is one TransactWriteItems of three puts, each on the
 * condition that its item does not exist yet: the claims make email and
 * username unique however many registrations race. Transactions that collide
 * with another in flight (TransactionConflict) are retried a bounded number
 * of times; by then the winner has committed and the loser's condition fails.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, paginateQuery, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  uniquenessKey,
  type AffiliateRecord,
  type AffiliateStore,
  type AffiliateSummary,
  type RegistrationOutcome,
  type UniqueAffiliateField,
} from '../domain/affiliates';
import type { AffiliateStatus } from '../domain/affiliate-program';
import { maxDeals, type Deal } from '../domain/deals';
import { Conflict } from '../domain/errors';
import { withRetry, type RetryPolicy } from './retry';
import { cancellationReasons as reasonsOf, cancelledByConflict as conflicted } from './transactions';

/** Up to 6 attempts, waits of at most 40 ms, 80 ms, … (uncapped). */
export const conflictRetry: RetryPolicy = { maxAttempts: 6, baseDelayMs: 40, maxDelayMs: Infinity };

const AFFILIATE_PREFIX = 'affiliate#';

/** A filtered page reads at most this many queries of this many affiliates. */
export const filteredPageReads = 5;
export const filteredReadItems = 200;

export const affiliateSortKey = (affiliateId: string) => `${AFFILIATE_PREFIX}${affiliateId}`;
export const claimSortKey = (field: UniqueAffiliateField, value: string) => `${field}#${uniquenessKey(value)}`;

/** The fields a listing returns: a whitelist, so nothing added to the item later leaks by default. */
const summaryFields = [
  'app_id',
  'affiliate_id',
  'email',
  'username',
  'first_name',
  'last_name',
  'website_url',
  'phone_number',
  'telegram',
  'youtube',
  'facebook',
  'whatsapp',
  'skype',
  'created_at',
  'status',
  'plan_id',
  'deals',
] as const satisfies readonly (keyof AffiliateSummary)[];

export class DynamoAffiliateStore implements AffiliateStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly retry: RetryPolicy = conflictRetry,
  ) {}

  async register(affiliate: AffiliateRecord): Promise<RegistrationOutcome> {
    const claim = (field: UniqueAffiliateField) => ({
      app_id: affiliate.app_id,
      sk: claimSortKey(field, affiliate[field]),
      affiliate_id: affiliate.affiliate_id,
      created_at: affiliate.created_at,
    });
    // Order matters: cancellation reasons come back in this order.
    const items = [{ ...affiliate, sk: affiliateSortKey(affiliate.affiliate_id) }, claim('email'), claim('username')];
    const command = new TransactWriteCommand({
      TransactItems: items.map((Item) => ({
        Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(sk)' },
      })),
    });
    try {
      // p-retry, not the SDK's retry strategy: the SDK does not retry a cancelled transaction.
      await withRetry(
        this.retry,
        (error) => takenFields(error).length === 0 && conflicted(error),
        () => this.db.send(command),
      );
      return { registered: true };
    } catch (error) {
      const taken = takenFields(error);
      if (taken.length > 0) return { registered: false, taken };
      throw error;
    }
  }

  async list(appId: string): Promise<AffiliateSummary[]> {
    const affiliates: AffiliateSummary[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'app_id = :app AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':app': appId, ':prefix': AFFILIATE_PREFIX },
      },
    );
    for await (const page of pages) affiliates.push(...(page.Items ?? []).map(summaryOf));
    return affiliates.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async get(appId: string, affiliateId: string): Promise<AffiliateSummary | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { app_id: appId, sk: affiliateSortKey(affiliateId) } }));
    return out.Item ? summaryOf(out.Item) : undefined;
  }

  /**
   * By affiliate id; one item more than asked tells whether a next page exists, so the last page never has a cursor.
   * With a status, DynamoDB filters after reading: at most `filteredPageReads` queries of `filteredReadItems`
   * affiliates each, then the page ends where the reading stopped.
   */
  async page(appId: string, limit: number, start?: string, status?: AffiliateStatus): Promise<{ affiliates: AffiliateSummary[]; next?: string }> {
    const query = (exclusiveStart: Record<string, unknown> | undefined, readLimit: number) =>
      this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'app_id = :app AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':app': appId, ':prefix': AFFILIATE_PREFIX, ...(status ? { ':status': status } : {}) },
          ...(status
            ? {
                // Affiliates stored before statuses existed have none: they are approved (statusOf).
                FilterExpression: status === 'approved' ? 'attribute_not_exists(#status) OR #status = :status' : '#status = :status',
                ExpressionAttributeNames: { '#status': 'status' },
              }
            : {}),
          ExclusiveStartKey: exclusiveStart,
          Limit: readLimit,
        }),
      );
    let exclusiveStart: Record<string, unknown> | undefined = start === undefined ? undefined : { app_id: appId, sk: affiliateSortKey(start) };
    const found: AffiliateSummary[] = [];
    // Not paginateQuery: the loop starts at the caller's cursor, stops at limit + 1 or the read budget, and answers where it stopped.
    for (let reads = 0; reads < (status ? filteredPageReads : 1); reads++) {
      const out = await query(exclusiveStart, status ? Math.max(limit + 1, filteredReadItems) : limit + 1);
      found.push(...(out.Items ?? []).map(summaryOf));
      if (found.length > limit) break;
      exclusiveStart = out.LastEvaluatedKey;
      if (!exclusiveStart) return { affiliates: found };
    }
    if (found.length > limit) {
      const affiliates = found.slice(0, limit);
      return { affiliates, next: affiliates[affiliates.length - 1].affiliate_id };
    }
    // The reads stopped short of limit + 1 (the filter's budget, or DynamoDB's 1 MB a query): the next page goes on from there.
    return { affiliates: found, next: String(exclusiveStart!.sk).slice(AFFILIATE_PREFIX.length) };
  }

  async update(appId: string, affiliateId: string, changes: Partial<Pick<AffiliateRecord, 'status' | 'plan_id'>>): Promise<AffiliateSummary | undefined> {
    const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
    if (entries.length === 0) return this.get(appId, affiliateId);
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { app_id: appId, sk: affiliateSortKey(affiliateId) },
          ConditionExpression: 'attribute_exists(sk)',
          UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes ? summaryOf(out.Attributes) : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  async appendDeals(appId: string, affiliateId: string, deals: Deal[], first: boolean): Promise<AffiliateSummary> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { app_id: appId, sk: affiliateSortKey(affiliateId) },
          // Appending, never rewriting the list: of two racing assignments both land (dealsOf orders them).
          ConditionExpression: first
            ? 'attribute_exists(sk) AND attribute_not_exists(deals)'
            : 'attribute_exists(sk) AND attribute_exists(deals) AND size(deals) < :max',
          UpdateExpression: first ? 'SET deals = :deals, plan_id = :plan' : 'SET deals = list_append(deals, :deals), plan_id = :plan',
          ExpressionAttributeValues: { ':deals': deals, ':plan': deals[deals.length - 1].plan_id, ...(first ? {} : { ':max': maxDeals }) },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return summaryOf(out.Attributes!);
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) throw new Conflict('the affiliate changed meanwhile: read it again');
      throw error;
    }
  }
}

const summaryOf = (item: Record<string, unknown>): AffiliateSummary =>
  Object.fromEntries(summaryFields.filter((field) => item[field] !== undefined).map((field) => [field, item[field]])) as AffiliateSummary;

/** The claims whose condition failed: reasons come in the order of the puts, the affiliate first. */
const takenFields = (error: unknown): UniqueAffiliateField[] =>
  (['email', 'username'] as const).filter((_, i) => reasonsOf(error)[i + 1]?.Code === 'ConditionalCheckFailed');
