import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { DynamoKeyStore } from '../../adapters/dynamo-key-store';
import { issueKey, keyView } from '../../back-office/keys';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { consoleActor, consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { jsonBody, validBody } from '../../http/json-body';
import { json } from '../../http/response';
import { validIssueKeyBody, type IssueKeyBody } from './schema';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  keys: new DynamoKeyStore(dynamo, requireEnv(tables.keys.envVar)),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
};

/** The key is in this answer only: the store keeps its hash, the audit entry its id. */
export const handler = consoleApi({ roles: ['admin'], mutates: true })
  .use(jsonBody({ maxBytes: maxBodyBytesOf('ConsoleIssueKey') }))
  .use(validBody(validIssueKeyBody))
  .handler(async (event: ConsoleEvent) => {
    const { scope } = event.body as unknown as IssueKeyBody;
    const issued = await issueKey(office, event.console.appId, consoleActor(event), scope);
    return json(201, { key: issued.key, ...keyView(issued.summary) });
  });
