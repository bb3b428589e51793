import { tables } from '../../manifest/resources';
import { DynamoAffiliateStore } from '../../adapters/dynamo-affiliate-store';
import { DynamoPlanStore } from '../../adapters/dynamo-plan-store';
import { listAffiliatesWithPlans } from '../../back-office/affiliates';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { validQuery } from '../../http/json-body';
import { json } from '../../http/response';
import { validConsoleAffiliatesQuery, type ConsoleAffiliatesQuery } from './schema';

const affiliatesTable = requireEnv(tables.affiliates.envVar);
const office = { affiliates: new DynamoAffiliateStore(dynamo, affiliatesTable), plans: new DynamoPlanStore(dynamo, affiliatesTable) };

export const handler = consoleApi({ roles: ['admin', 'marketer', 'viewer'], mutates: false })
  .use(validQuery(validConsoleAffiliatesQuery))
  .handler(async (event: ConsoleEvent) => {
    const query = event.queryStringParameters as ConsoleAffiliatesQuery;
    return json(
      200,
      await listAffiliatesWithPlans(office, event.console.appId, {
        status: query.status,
        cursor: query.cursor,
        limit: query.limit === undefined ? undefined : Number(query.limit),
      }),
    );
  });
