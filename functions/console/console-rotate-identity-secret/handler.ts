import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { rotateIdentitySecret } from '../../back-office/identity';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { consoleActor, consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { json } from '../../http/response';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  secrets: secretStoreFromEnv(),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
};

/** The new secret is in this answer only; the audit entry says that it was rotated, not what it is. */
export const handler = consoleApi({ roles: ['admin'], mutates: true }).handler(async (event: ConsoleEvent) =>
  json(200, { identity_secret: await rotateIdentitySecret(office, event.console.appId, consoleActor(event)) }),
);
