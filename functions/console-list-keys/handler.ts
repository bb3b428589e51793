import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoKeyStore } from '../shared/adapters/dynamo-key-store';
import { keyView, listKeys } from '../shared/back-office/keys';
import { dynamo } from '../shared/clients';
import { requireEnv } from '../shared/config';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { json } from '../shared/http/response';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  keys: new DynamoKeyStore(dynamo, requireEnv(tables.keys.envVar)),
};

export const handler = consoleApi({ roles: ['admin'], mutates: false }).handler(async (event: ConsoleEvent) =>
  json(200, { keys: (await listKeys(office, event.console.appId)).map(keyView) }),
);
