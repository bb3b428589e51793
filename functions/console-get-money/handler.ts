import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { getMoneySettings } from '../shared/back-office/money';
import { dynamo } from '../shared/clients';
import { requireEnv } from '../shared/config';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { json } from '../shared/http/response';

const office = { apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)) };

export const handler = consoleApi({ roles: ['admin'], mutates: false }).handler(async (event: ConsoleEvent) => {
  const { currency, money_events } = await getMoneySettings(office, event.console.appId);
  return json(200, { currency, money_events });
});
