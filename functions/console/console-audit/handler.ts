import { tables } from '../../manifest/resources';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { readAudit } from '../../back-office/audit';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { validQuery } from '../../http/json-body';
import { json } from '../../http/response';
import { validAuditQuery, type AuditQuery } from './schema';

const read = readAudit({ audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)) });

export const handler = consoleApi({ roles: ['admin'], mutates: false })
  .use(validQuery(validAuditQuery))
  .handler(async (event: ConsoleEvent) => {
    const query = event.queryStringParameters as AuditQuery;
    const page = await read(event.console.appId, { limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor });
    return json(200, { entries: page.entries, next_cursor: page.cursor ?? null });
  });
