import { tables } from '../../manifest/resources';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { DynamoPlanStore } from '../../adapters/dynamo-plan-store';
import { createPlan } from '../../back-office/plans';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { describePlan } from '../../domain/plans';
import { consoleActor, consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { jsonBody, validBody } from '../../http/json-body';
import { json } from '../../http/response';
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
