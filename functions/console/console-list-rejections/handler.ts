import { tables } from '../../manifest/resources';
import { DynamoRejectionLog } from '../../adapters/dynamo-rejection-log';
import { listRejectionPage } from '../../back-office/records';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { validQuery } from '../../http/json-body';
import { json } from '../../http/response';
import { validRejectionsQuery, type RejectionsQuery } from './schema';

const office = { rejections: new DynamoRejectionLog(dynamo, requireEnv(tables.rejections.envVar)) };

/** The application's rejected records, newest first, each with its reason and the record as received (cut to fit). */
export const handler = consoleApi({ roles: ['admin', 'marketer', 'viewer'], mutates: false })
  .use(validQuery(validRejectionsQuery))
  .handler(async (event: ConsoleEvent) => {
    const query = event.queryStringParameters as RejectionsQuery;
    return json(200, await listRejectionPage(office, event.console.appId, { limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor }));
  });
