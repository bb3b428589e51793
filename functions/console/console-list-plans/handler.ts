import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoPlanStore } from '../../adapters/dynamo-plan-store';
import { listPlans } from '../../back-office/plans';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { describePlan } from '../../domain/plans';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { json } from '../../http/response';

const office = { apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)), plans: new DynamoPlanStore(dynamo, requireEnv(tables.affiliates.envVar)) };

export const handler = consoleApi({ roles: ['admin', 'marketer', 'viewer'], mutates: false }).handler(async (event: ConsoleEvent) => {
  const plans = await listPlans(office, event.console.appId);
  return json(200, { plans: plans.map(({ app_id: _app, ...plan }) => ({ ...plan, terms: describePlan(plan) })) });
});
