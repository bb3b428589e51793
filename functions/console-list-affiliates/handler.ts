import { tables } from '../shared/manifest/resources';
import { DynamoAffiliateStore } from '../shared/adapters/dynamo-affiliate-store';
import { DynamoPlanStore } from '../shared/adapters/dynamo-plan-store';
import { listAffiliatesWithPlans } from '../shared/back-office/affiliates';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { validQuery } from '../shared/http/json-body';
import { json } from '../shared/http/response';
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
