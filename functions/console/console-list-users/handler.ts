import { tables } from '../../manifest/resources';
import { DynamoEnterpriseUserStore } from '../../adapters/dynamo-enterprise-user-store';
import { listUsers } from '../../back-office/users';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { validQuery } from '../../http/json-body';
import { json } from '../../http/response';
import { validUsersQuery, type UsersQuery } from './schema';

const list = listUsers({ users: new DynamoEnterpriseUserStore(dynamo, requireEnv(tables.enterpriseUsers.envVar)) });

export const handler = consoleApi({ roles: ['admin'], mutates: false })
  .use(validQuery(validUsersQuery))
  .handler(async (event: ConsoleEvent) => {
    const query = event.queryStringParameters as UsersQuery;
    const page = await list(event.console.appId, { limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor });
    return json(200, { users: page.users, next_cursor: page.cursor ?? null });
  });
