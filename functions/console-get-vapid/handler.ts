import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { requireApp } from '../shared/back-office/apps';
import { dynamo } from '../shared/clients';
import { requireEnv } from '../shared/config';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { json } from '../shared/http/response';

const office = { apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)) };

/** The public half only: the private key is in the secret store, which this function cannot read. */
export const handler = consoleApi({ roles: ['admin'], mutates: false }).handler(async (event: ConsoleEvent) => {
  const app = await requireApp(office, event.console.appId);
  return json(200, { vapid_public_key: app.vapid_public_key ?? null, vapid_subject: app.vapid_subject ?? null });
});
