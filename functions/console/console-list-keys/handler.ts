import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoKeyStore } from '../../adapters/dynamo-key-store';
import { keyView, listKeys } from '../../back-office/keys';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { json } from '../../http/response';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  keys: new DynamoKeyStore(dynamo, requireEnv(tables.keys.envVar)),
};

export const handler = consoleApi({ roles: ['admin'], mutates: false }).handler(async (event: ConsoleEvent) =>
  json(200, { keys: (await listKeys(office, event.console.appId)).map(keyView) }),
);
