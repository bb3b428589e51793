import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { requireApp } from '../../back-office/apps';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { json } from '../../http/response';

const office = { apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)) };

/** The public half only: the private key is in the secret store, which this function cannot read. */
export const handler = consoleApi({ roles: ['admin'], mutates: false }).handler(async (event: ConsoleEvent) => {
  const app = await requireApp(office, event.console.appId);
  return json(200, { vapid_public_key: app.vapid_public_key ?? null, vapid_subject: app.vapid_subject ?? null });
});
