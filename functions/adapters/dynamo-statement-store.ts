/**
 * Statements on DynamoDB, in the affiliates table beside the affiliates
 * (one partition per application):
 *
 *   stmt#<affiliate_id>#<YYYY-MM>                    an approved (or paid) statement, frozen
 *   adj#<affiliate_id>#<YYYY-MM>                     the month's count of manual adjustments ever added
 *   adj#<affiliate_id>#<YYYY-MM>#<adjustment_id>     a manual adjustment
 *   approved#<affiliate_id>                          the last approved month (`month`), which every approval moves on
 *
 * Approvals of an affiliate are serial through the last-month item: each is
 * conditional on it still naming the month it found, so of two first
 * approvals of different months, one wins. (Statements approved before the
 * item existed have none: then the month it found must be approved.)
 *
 * An adjustment and an approval are transactions that see each other: the
 * adjustment checks the statement is not there and adds to the count, the
 * approval puts the statement on the condition that the count is the one
 * it computed with. So no adjustment lands on a frozen month unseen.
 * The payout method and details are attributes of the affiliate item.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, paginateQuery, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PayoutDetails, PayoutStore } from '../domain/payouts';
import type { FrozenStatement, ManualAdjustment, StatementPayment, StatementStore } from '../domain/statements';
import { affiliateSortKey } from './dynamo-affiliate-store';
import { batchGetAll } from './batch-write';
import { cancellationCodes as reasonCodes } from './transactions';

export const statementSortKey = (affiliateId: string, month: string) => `stmt#${affiliateId}#${month}`;
const adjustmentCountKey = (affiliateId: string, month: string) => `adj#${affiliateId}#${month}`;
const lastApprovedKey = (affiliateId: string) => `approved#${affiliateId}`;
const adjustmentSortKey = (affiliateId: string, month: string, id: string) => `${adjustmentCountKey(affiliateId, month)}#${id}`;

const statementOf = (item: Record<string, unknown>): FrozenStatement => {
  const { app_id: _app, sk: _sk, ...statement } = item;
  return statement as unknown as FrozenStatement;
};

export class DynamoStatementStore implements StatementStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private async query(appId: string, prefix: string, forward = true): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'app_id = :app AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':app': appId, ':prefix': prefix },
        ScanIndexForward: forward,
      },
    );
    for await (const page of pages) items.push(...(page.Items ?? []));
    return items;
  }

  async lastClosedMonth(appId: string, affiliateId: string): Promise<string | undefined> {
    // Months sort as text: the newest statement is the first one backwards, one read.
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'app_id = :app AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':app': appId, ':prefix': `stmt#${affiliateId}#` },
        ProjectionExpression: '#month',
        ExpressionAttributeNames: { '#month': 'month' },
        ScanIndexForward: false,
        Limit: 1,
      }),
    );
    return out.Items?.[0]?.month as string | undefined;
  }

  async frozen(appId: string, affiliateId: string): Promise<FrozenStatement[]> {
    return (await this.query(appId, `stmt#${affiliateId}#`)).map(statementOf);
  }

  async get(appId: string, affiliateId: string, month: string): Promise<FrozenStatement | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { app_id: appId, sk: statementSortKey(affiliateId, month) } }));
    return out.Item ? statementOf(out.Item) : undefined;
  }

  async ofMonth(appId: string, month: string, affiliateIds: readonly string[]): Promise<FrozenStatement[]> {
    const items = await batchGetAll(
      this.db,
      this.tableName,
      affiliateIds.map((id) => ({ app_id: appId, sk: statementSortKey(id, month) })),
      { what: 'statement' },
    );
    return items.map(statementOf).sort((a, b) => a.affiliate_id.localeCompare(b.affiliate_id));
  }

  async adjustments(appId: string, affiliateId: string, month: string): Promise<{ adjustments: ManualAdjustment[]; added: number }> {
    // The count item sorts first (its key is the others' prefix); strongly consistent, as the approval relies on it.
    const items: Record<string, unknown>[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'app_id = :app AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':app': appId, ':prefix': adjustmentCountKey(affiliateId, month) },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) items.push(...(page.Items ?? []));
    const count = items.find((item) => item.sk === adjustmentCountKey(affiliateId, month));
    const adjustments = items
      .filter((item) => item !== count)
      .map(({ app_id: _a, sk: _s, ...adjustment }) => adjustment as unknown as ManualAdjustment)
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
    return { adjustments, added: Number(count?.added ?? 0) };
  }

  async addAdjustment(appId: string, affiliateId: string, month: string, adjustment: ManualAdjustment, max: number): Promise<'added' | 'closed' | 'full'> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              ConditionCheck: {
                TableName: this.tableName,
                Key: { app_id: appId, sk: statementSortKey(affiliateId, month) },
                ConditionExpression: 'attribute_not_exists(sk)',
              },
            },
            {
              Update: {
                TableName: this.tableName,
                Key: { app_id: appId, sk: adjustmentCountKey(affiliateId, month) },
                UpdateExpression: 'ADD added :one',
                ConditionExpression: 'attribute_not_exists(added) OR added < :max',
                ExpressionAttributeValues: { ':one': 1, ':max': max },
              },
            },
            { Put: { TableName: this.tableName, Item: { app_id: appId, sk: adjustmentSortKey(affiliateId, month, adjustment.adjustment_id), ...adjustment } } },
          ],
        }),
      );
      return 'added';
    } catch (error) {
      const codes = reasonCodes(error);
      if (codes[0] === 'ConditionalCheckFailed') return 'closed';
      if (codes[1] === 'ConditionalCheckFailed') return 'full';
      throw error;
    }
  }

  async approve(
    appId: string,
    statement: FrozenStatement,
    conditions: { added: number; previous?: string },
  ): Promise<'approved' | 'taken' | 'changed' | 'gap'> {
    const { affiliate_id: affiliateId, month } = statement;
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: { app_id: appId, sk: statementSortKey(affiliateId, month), ...statement },
                ConditionExpression: 'attribute_not_exists(sk)',
              },
            },
            {
              ConditionCheck: {
                TableName: this.tableName,
                Key: { app_id: appId, sk: adjustmentCountKey(affiliateId, month) },
                ConditionExpression: conditions.added === 0 ? 'attribute_not_exists(added) OR added = :added' : 'added = :added',
                ExpressionAttributeValues: { ':added': conditions.added },
              },
            },
            {
              Update: {
                TableName: this.tableName,
                Key: { app_id: appId, sk: lastApprovedKey(affiliateId) },
                UpdateExpression: 'SET #month = :month',
                ConditionExpression: conditions.previous === undefined ? 'attribute_not_exists(#month)' : 'attribute_not_exists(#month) OR #month = :previous',
                ExpressionAttributeNames: { '#month': 'month' },
                ExpressionAttributeValues: { ':month': month, ...(conditions.previous === undefined ? {} : { ':previous': conditions.previous }) },
              },
            },
            ...(conditions.previous === undefined
              ? []
              : [
                  {
                    ConditionCheck: {
                      TableName: this.tableName,
                      Key: { app_id: appId, sk: statementSortKey(affiliateId, conditions.previous) },
                      ConditionExpression: 'attribute_exists(sk)',
                    },
                  },
                ]),
          ],
        }),
      );
      return 'approved';
    } catch (error) {
      const codes = reasonCodes(error);
      if (codes[0] === 'ConditionalCheckFailed') return 'taken';
      if (codes[1] === 'ConditionalCheckFailed') return 'changed';
      if (codes[2] === 'ConditionalCheckFailed' || codes[3] === 'ConditionalCheckFailed') return 'gap';
      throw error;
    }
  }

  async markPaid(appId: string, affiliateId: string, month: string, payment: StatementPayment): Promise<FrozenStatement | undefined> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { app_id: appId, sk: statementSortKey(affiliateId, month) },
          UpdateExpression: 'SET #status = :paid, payment = :payment',
          ConditionExpression: '#status = :approved',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':paid': 'paid', ':approved': 'approved', ':payment': payment },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes ? statementOf(out.Attributes) : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }
}

export class DynamoPayoutStore implements PayoutStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(appId: string, affiliateId: string): Promise<PayoutDetails | undefined> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { app_id: appId, sk: affiliateSortKey(affiliateId) },
        ProjectionExpression: 'payout_method, payout_details',
      }),
    );
    return out.Item?.payout_method ? (out.Item as PayoutDetails) : undefined;
  }

  async getMany(appId: string, affiliateIds: readonly string[]): Promise<Map<string, PayoutDetails>> {
    const items = await batchGetAll(
      this.db,
      this.tableName,
      affiliateIds.map((id) => ({ app_id: appId, sk: affiliateSortKey(id) })),
      { what: 'payout', fields: ['affiliate_id', 'payout_method', 'payout_details'] },
    );
    return new Map(
      items
        .filter((item) => item.payout_method)
        .map((item) => [item.affiliate_id as string, { payout_method: item.payout_method, payout_details: item.payout_details } as PayoutDetails]),
    );
  }

  async set(appId: string, affiliateId: string, payout: PayoutDetails): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { app_id: appId, sk: affiliateSortKey(affiliateId) },
          ConditionExpression: 'attribute_exists(sk)',
          UpdateExpression: 'SET payout_method = :method, payout_details = :details',
          ExpressionAttributeValues: { ':method': payout.payout_method, ':details': payout.payout_details },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
