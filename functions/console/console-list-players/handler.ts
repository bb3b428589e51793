import { tables } from '../../manifest/resources';
import { DynamoPlayerDirectory } from '../../adapters/dynamo-player-directory';
import { DynamoProfileStore } from '../../adapters/dynamo-profile-store';
import { listPlayers } from '../../back-office/players';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { validQuery } from '../../http/json-body';
import { json } from '../../http/response';
import { validListPlayersQuery, type ListPlayersQuery } from './schema';

const list = listPlayers({
  directory: new DynamoPlayerDirectory(dynamo, requireEnv(tables.profiles.envVar)),
  profiles: new DynamoProfileStore(dynamo, requireEnv(tables.profiles.envVar)),
});

export const handler = consoleApi({ roles: ['admin', 'marketer', 'viewer'], mutates: false })
  .use(validQuery(validListPlayersQuery))
  .handler(async (event: ConsoleEvent) => json(200, await list(event.console, event.queryStringParameters as ListPlayersQuery)));
