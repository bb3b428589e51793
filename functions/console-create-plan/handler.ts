import { tables } from '../shared/manifest/resources';
import { maxBodyBytesOf } from '../shared/manifest/body-limits';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoAuditLog } from '../shared/adapters/dynamo-audit-log';
import { DynamoPlanStore } from '../shared/adapters/dynamo-plan-store';
import { createPlan } from '../shared/back-office/plans';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { describePlan } from '../shared/domain/plans';
import { consoleActor, consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { jsonBody, validBody } from '../shared/http/json-body';
import { json } from '../shared/http/response';
import { validCreatePlanBody, type CreatePlanBody } from './schema';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  plans: new DynamoPlanStore(dynamo, requireEnv(tables.affiliates.envVar)),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
};

export const handler = consoleApi({ roles: ['admin', 'marketer'], mutates: true })
  .use(jsonBody({ maxBytes: maxBodyBytesOf('ConsoleCreatePlan') }))
  .use(validBody(validCreatePlanBody))
  .handler(async (event: ConsoleEvent) => {
    const { app_id: _app, ...plan } = await createPlan(office, event.console.appId, consoleActor(event), event.body as unknown as CreatePlanBody);
    return json(201, { plan: { ...plan, terms: describePlan(plan) } });
  });
