import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { DynamoKeyStore } from '../../adapters/dynamo-key-store';
import { revokeKey } from '../../back-office/keys';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { consoleActor, consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { json } from '../../http/response';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  keys: new DynamoKeyStore(dynamo, requireEnv(tables.keys.envVar)),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
};

/** Keyed by the session's application: another application's key id is not found, as an unknown one. */
export const handler = consoleApi({ roles: ['admin'], mutates: true }).handler(async (event: ConsoleEvent) => {
  const keyId = event.pathParameters?.key_id ?? '';
  await revokeKey(office, event.console.appId, consoleActor(event), keyId);
  return json(200, { key_id: keyId, message: 'key revoked' });
});
