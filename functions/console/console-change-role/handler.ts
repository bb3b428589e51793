import { tables } from '../../manifest/resources';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { DynamoEnterpriseUserStore } from '../../adapters/dynamo-enterprise-user-store';
import { changeUserRole } from '../../back-office/users';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { jsonBody, validBody } from '../../http/json-body';
import { json } from '../../http/response';
import { validChangeRoleBody, type ChangeRoleBody } from './schema';

const change = changeUserRole({
  users: new DynamoEnterpriseUserStore(dynamo, requireEnv(tables.enterpriseUsers.envVar)),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
});

export const handler = consoleApi({ roles: ['admin'], mutates: true })
  .use(jsonBody({ maxBytes: maxBodyBytesOf('ConsoleChangeRole') }))
  .use(validBody(validChangeRoleBody))
  .handler(async (event: ConsoleEvent) => {
    const { role } = event.body as unknown as ChangeRoleBody;
    const userId = event.pathParameters?.user_id ?? '';
    const actor = { user_id: event.console.userId, email: event.console.email };
    return json(200, { user: await change(event.console.appId, actor, userId, role) });
  });
