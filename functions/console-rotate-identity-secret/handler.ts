import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoAuditLog } from '../shared/adapters/dynamo-audit-log';
import { secretStoreFromEnv } from '../shared/adapters/secret-store';
import { rotateIdentitySecret } from '../shared/back-office/identity';
import { dynamo } from '../shared/clients';
import { requireEnv } from '../shared/config';
import { consoleActor, consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { json } from '../shared/http/response';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  secrets: secretStoreFromEnv(),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
};

/** The new secret is in this answer only; the audit entry says that it was rotated, not what it is. */
export const handler = consoleApi({ roles: ['admin'], mutates: true }).handler(async (event: ConsoleEvent) =>
  json(200, { identity_secret: await rotateIdentitySecret(office, event.console.appId, consoleActor(event)) }),
);
