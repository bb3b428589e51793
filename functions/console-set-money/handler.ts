import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoAuditLog } from '../shared/adapters/dynamo-audit-log';
import { setMoneySettings } from '../shared/back-office/money';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { maxBodyBytesOf } from '../shared/manifest/body-limits';
import { consoleActor, consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { jsonBody, validBody } from '../shared/http/json-body';
import { json } from '../shared/http/response';
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
