import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoEnterpriseUserStore } from '../../adapters/dynamo-enterprise-user-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { roles } from '../../domain/enterprise';
import { consoleApi, consoleSessionId } from '../../http/console-auth';
import { json } from '../../http/response';
import { describeSession } from './core';

const describe = describeSession({
  users: new DynamoEnterpriseUserStore(dynamo, requireEnv(tables.enterpriseUsers.envVar)),
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
});

export const handler = consoleApi({ roles, mutates: false }).handler(async (event) => {
  // The middleware let the call through: the cookie names a live session.
  const sessionId = consoleSessionId(event) as string;
  return json(200, await describe(event.console, sessionId, event.consoleSession.expires_at));
});
