import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { setMoneySettings } from '../../back-office/money';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { consoleActor, consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { jsonBody, validBody } from '../../http/json-body';
import { json } from '../../http/response';
import { validSetMoneyBody, type SetMoneyBody } from './schema';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
};

export const handler = consoleApi({ roles: ['admin'], mutates: true })
  .use(jsonBody({ maxBytes: maxBodyBytesOf('ConsoleSetMoney') }))
  .use(validBody(validSetMoneyBody))
  .handler(async (event: ConsoleEvent) => {
    const { currency, money_events } = await setMoneySettings(office, event.console.appId, consoleActor(event), event.body as unknown as SetMoneyBody);
    return json(200, { currency, money_events });
  });
