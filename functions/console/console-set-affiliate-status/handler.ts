import { tables } from '../../manifest/resources';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { DynamoAffiliateStore } from '../../adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { setAffiliateStatus } from '../../back-office/affiliates';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { affiliateIdOf } from '../../domain/affiliates';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { jsonBody, validBody } from '../../http/json-body';
import { json } from '../../http/response';
import { validSetAffiliateStatusBody, type SetAffiliateStatusBody } from './schema';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  affiliates: new DynamoAffiliateStore(dynamo, requireEnv(tables.affiliates.envVar)),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
};

export const handler = consoleApi({ roles: ['admin', 'marketer'], mutates: true })
  .use(jsonBody({ maxBytes: maxBodyBytesOf('ConsoleSetAffiliateStatus') }))
  .use(validBody(validSetAffiliateStatusBody))
  .handler(async (event: ConsoleEvent) => {
    const { status } = event.body as unknown as SetAffiliateStatusBody;
    const actor = { user_id: event.console.userId, email: event.console.email };
    return json(200, { affiliate: await setAffiliateStatus(office, event.console.appId, actor, affiliateIdOf(event.pathParameters), status) });
  });
