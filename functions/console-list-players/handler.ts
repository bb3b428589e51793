import { tables } from '../shared/manifest/resources';
import { DynamoPlayerDirectory } from '../shared/adapters/dynamo-player-directory';
import { DynamoProfileStore } from '../shared/adapters/dynamo-profile-store';
import { listPlayers } from '../shared/back-office/players';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { validQuery } from '../shared/http/json-body';
import { json } from '../shared/http/response';
import { validListPlayersQuery, type ListPlayersQuery } from './schema';

const list = listPlayers({
  directory: new DynamoPlayerDirectory(dynamo, requireEnv(tables.profiles.envVar)),
  profiles: new DynamoProfileStore(dynamo, requireEnv(tables.profiles.envVar)),
});

export const handler = consoleApi({ roles: ['admin', 'marketer', 'viewer'], mutates: false })
  .use(validQuery(validListPlayersQuery))
  .handler(async (event: ConsoleEvent) => json(200, await list(event.console, event.queryStringParameters as ListPlayersQuery)));
