import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { appSettingsView, requireApp } from '../../back-office/apps';
import { hasIdentitySecret } from '../../back-office/identity';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { json } from '../../http/response';

const office = { apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)), secrets: secretStoreFromEnv() };

export const handler = consoleApi({ roles: ['admin'], mutates: false }).handler(async (event: ConsoleEvent) => {
  const app = await requireApp(office, event.console.appId);
  return json(200, { app: { ...appSettingsView(app), identity_secret_set: await hasIdentitySecret(office, app.app_id) } });
});
