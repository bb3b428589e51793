import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { secretStoreFromEnv } from '../shared/adapters/secret-store';
import { appSettingsView, requireApp } from '../shared/back-office/apps';
import { hasIdentitySecret } from '../shared/back-office/identity';
import { dynamo } from '../shared/clients';
import { requireEnv } from '../shared/config';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { json } from '../shared/http/response';

const office = { apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)), secrets: secretStoreFromEnv() };

export const handler = consoleApi({ roles: ['admin'], mutates: false }).handler(async (event: ConsoleEvent) => {
  const app = await requireApp(office, event.console.appId);
  return json(200, { app: { ...appSettingsView(app), identity_secret_set: await hasIdentitySecret(office, app.app_id) } });
});
