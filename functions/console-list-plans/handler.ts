import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoPlanStore } from '../shared/adapters/dynamo-plan-store';
import { listPlans } from '../shared/back-office/plans';
import { dynamo } from '../shared/clients';
import { requireEnv } from '../shared/config';
import { describePlan } from '../shared/domain/plans';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { json } from '../shared/http/response';

const office = { apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)), plans: new DynamoPlanStore(dynamo, requireEnv(tables.affiliates.envVar)) };

export const handler = consoleApi({ roles: ['admin', 'marketer', 'viewer'], mutates: false }).handler(async (event: ConsoleEvent) => {
  const plans = await listPlans(office, event.console.appId);
  return json(200, { plans: plans.map(({ app_id: _app, ...plan }) => ({ ...plan, terms: describePlan(plan) })) });
});
