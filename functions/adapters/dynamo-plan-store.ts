/**
 * PlanStore on DynamoDB: plans live in the affiliates table, in their
 * application's partition, under `plan#<plan_id>` (beside the affiliates,
 * `affiliate#…`, which listings of affiliates select by prefix).
 */
import { GetCommand, paginateQuery, PutCommand, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { Plan } from '../domain/affiliate-program';
import type { PlanStore } from '../domain/plans';

const PLAN_PREFIX = 'plan#';

export const planSortKey = (planId: string) => `${PLAN_PREFIX}${planId}`;

function planOf(item: Record<string, NativeAttributeValue>): Plan {
  // An item create() wrote: the plan and its sort key.
  const { sk: _sk, ...plan } = item as Plan & { sk: string };
  return plan;
}

export class DynamoPlanStore implements PlanStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(plan: Plan): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...plan, sk: planSortKey(plan.plan_id) },
        ConditionExpression: 'attribute_not_exists(sk)',
      }),
    );
  }

  async get(appId: string, planId: string): Promise<Plan | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { app_id: appId, sk: planSortKey(planId) } }));
    return out.Item ? planOf(out.Item) : undefined;
  }

  async list(appId: string): Promise<Plan[]> {
    const plans: Plan[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'app_id = :app AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':app': appId, ':prefix': PLAN_PREFIX },
      },
    );
    for await (const page of pages) plans.push(...(page.Items ?? []).map(planOf));
    return plans.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }
}
