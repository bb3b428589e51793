import { tables } from '../shared/manifest/resources';
import { DynamoAuditLog } from '../shared/adapters/dynamo-audit-log';
import { readAudit } from '../shared/back-office/audit';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { validQuery } from '../shared/http/json-body';
import { json } from '../shared/http/response';
import { validAuditQuery, type AuditQuery } from './schema';

const read = readAudit({ audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)) });

export const handler = consoleApi({ roles: ['admin'], mutates: false })
  .use(validQuery(validAuditQuery))
  .handler(async (event: ConsoleEvent) => {
    const query = event.queryStringParameters as AuditQuery;
    const page = await read(event.console.appId, { limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor });
    return json(200, { entries: page.entries, next_cursor: page.cursor ?? null });
  });
