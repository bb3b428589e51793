import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { getMoneySettings } from '../../back-office/money';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { json } from '../../http/response';

const office = { apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)) };

export const handler = consoleApi({ roles: ['admin'], mutates: false }).handler(async (event: ConsoleEvent) => {
  const { currency, money_events } = await getMoneySettings(office, event.console.appId);
  return json(200, { currency, money_events });
});
