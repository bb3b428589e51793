import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoAuditLog } from '../shared/adapters/dynamo-audit-log';
import { DynamoKeyStore } from '../shared/adapters/dynamo-key-store';
import { revokeKey } from '../shared/back-office/keys';
import { dynamo } from '../shared/clients';
import { requireEnv } from '../shared/config';
import { consoleActor, consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { json } from '../shared/http/response';

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
