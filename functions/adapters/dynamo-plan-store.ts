/**
 * PlanStore on DynamoDB: plans live in the affiliates table, in their
 * application's partition: `plan#<plan_id>` is the current version (beside
 * the affiliates, `affiliate#…`, which listings of affiliates select by
 * prefix), and `planv#<plan_id>#<version, 6 digits>` each version, written
 * once. A plan stored before versions has no `planv#` item until its first
 * edit: version 1 is then read from `plan#`.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, paginateQuery, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Plan } from '../domain/affiliate-program';
import { versionOf } from '../domain/deals';
import { Conflict } from '../domain/errors';
import type { PlanStore } from '../domain/plans';

const PLAN_PREFIX = 'plan#';
const VERSION_PREFIX = 'planv#';

export const planSortKey = (planId: string) => `${PLAN_PREFIX}${planId}`;
export const planVersionSortKey = (planId: string, version: number) => `${VERSION_PREFIX}${planId}#${String(version).padStart(6, '0')}`;

function planOf(item: Record<string, NativeAttributeValue>): Plan {
  // An item this store wrote: the plan and its sort key.
  const { sk: _sk, ...plan } = item as Plan & { sk: string };
  return plan;
}

/** A version's item: the terms as they were, never the archive mark of the current item. */
const versionItem = ({ archived_at: _archived, ...plan }: Plan) => ({
  ...plan,
  version: versionOf(plan),
  sk: planVersionSortKey(plan.plan_id, versionOf(plan)),
});

export class DynamoPlanStore implements PlanStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(plan: Plan): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.tableName,
              Item: { ...plan, version: versionOf(plan), sk: planSortKey(plan.plan_id) },
              ConditionExpression: 'attribute_not_exists(sk)',
            },
          },
          { Put: { TableName: this.tableName, Item: versionItem(plan), ConditionExpression: 'attribute_not_exists(sk)' } },
        ],
      }),
    );
  }

  async get(appId: string, planId: string): Promise<Plan | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { app_id: appId, sk: planSortKey(planId) } }));
    return out.Item ? planOf(out.Item) : undefined;
  }

  async getVersion(appId: string, planId: string, version: number): Promise<Plan | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { app_id: appId, sk: planVersionSortKey(planId, version) } }));
    if (out.Item) return planOf(out.Item);
    if (version !== 1) return undefined;
    // Stored before versions and never edited since: the current item is version 1.
    const current = await this.get(appId, planId);
    return current && current.version === undefined ? current : undefined;
  }

  async versions(appId: string, planId: string): Promise<Plan[]> {
    const versions = await this.query(appId, `${VERSION_PREFIX}${planId}#`);
    if (versions.length > 0) return versions;
    const legacy = await this.getVersion(appId, planId, 1);
    return legacy ? [legacy] : [];
  }

  async saveVersion(next: Plan, previous: Plan): Promise<void> {
    const legacy = previous.version === undefined;
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: { ...next, sk: planSortKey(next.plan_id) },
                // Two edits of one version: one wins, the other is a Conflict.
                ConditionExpression: legacy
                  ? 'attribute_exists(sk) AND attribute_not_exists(version) AND attribute_not_exists(archived_at)'
                  : 'version = :previous AND attribute_not_exists(archived_at)',
                ...(legacy ? {} : { ExpressionAttributeValues: { ':previous': previous.version } }),
              },
            },
            { Put: { TableName: this.tableName, Item: versionItem(next), ConditionExpression: 'attribute_not_exists(sk)' } },
            // The first edit of a plan from before versions keeps its terms as version 1.
            ...(legacy ? [{ Put: { TableName: this.tableName, Item: versionItem(previous), ConditionExpression: 'attribute_not_exists(sk)' } }] : []),
          ],
        }),
      );
    } catch (error) {
      if (error instanceof TransactionCanceledException) throw new Conflict('the plan changed meanwhile: read it again');
      throw error;
    }
  }

  async archive(appId: string, planId: string, at: string): Promise<Plan | undefined> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { app_id: appId, sk: planSortKey(planId) },
          ConditionExpression: 'attribute_exists(sk) AND attribute_not_exists(archived_at)',
          UpdateExpression: 'SET archived_at = :at',
          ExpressionAttributeValues: { ':at': at },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes ? planOf(out.Attributes) : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  async list(appId: string): Promise<Plan[]> {
    const plans = await this.query(appId, PLAN_PREFIX);
    return plans.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  private async query(appId: string, prefix: string): Promise<Plan[]> {
    const plans: Plan[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'app_id = :app AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':app': appId, ':prefix': prefix },
      },
    );
    for await (const page of pages) plans.push(...(page.Items ?? []).map(planOf));
    return plans;
  }
}
