import { tables } from '../shared/manifest/resources';
import { DynamoProfileStore } from '../shared/adapters/dynamo-profile-store';
import { DynamoRejectionLog } from '../shared/adapters/dynamo-rejection-log';
import { getPlayer } from '../shared/back-office/players';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { profileIdOf } from '../shared/domain/profile-id';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { json } from '../shared/http/response';

const read = getPlayer({
  profiles: new DynamoProfileStore(dynamo, requireEnv(tables.profiles.envVar)),
  rejections: new DynamoRejectionLog(dynamo, requireEnv(tables.rejections.envVar)),
});

export const handler = consoleApi({ roles: ['admin', 'marketer', 'viewer'], mutates: false }).handler(async (event: ConsoleEvent) =>
  json(200, await read(event.console, profileIdOf(event.pathParameters))),
);
