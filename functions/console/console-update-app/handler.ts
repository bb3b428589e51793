import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { DynamoPlanStore } from '../../adapters/dynamo-plan-store';
import { appSettingsView, updateApp } from '../../back-office/apps';
import { setIdentityVerification } from '../../back-office/identity';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { consoleActor, consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { jsonBody, validBody } from '../../http/json-body';
import { json } from '../../http/response';
import { validUpdateAppBody, type UpdateAppBody } from './schema';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  plans: new DynamoPlanStore(dynamo, requireEnv(tables.affiliates.envVar)),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
};

/** The command line's `app update` and `app identity --on/--off`, in one call: each audited by its use case. */
export const handler = consoleApi({ roles: ['admin'], mutates: true })
  .use(jsonBody({ maxBytes: maxBodyBytesOf('ConsoleUpdateApp') }))
  .use(validBody(validUpdateAppBody))
  .handler(async (event: ConsoleEvent) => {
    const body = event.body as unknown as UpdateAppBody;
    const actor = consoleActor(event);
    let app = await updateApp(office, event.console.appId, actor, {
      name: body.name,
      portalOrigin: body.portal_origin,
      siteOrigins: body.site_origins,
      affiliateApproval: body.affiliate_approval,
      defaultPlanId: body.default_plan_id,
    });
    if (body.identity_verification !== undefined) {
      app = await setIdentityVerification(office, event.console.appId, actor, body.identity_verification === 'on');
    }
    return json(200, { app: appSettingsView(app) });
  });
