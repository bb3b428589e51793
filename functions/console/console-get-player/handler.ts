import { tables } from '../../manifest/resources';
import { DynamoProfileStore } from '../../adapters/dynamo-profile-store';
import { DynamoRejectionLog } from '../../adapters/dynamo-rejection-log';
import { getPlayer } from '../../back-office/players';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { profileIdOf } from '../../domain/profile-id';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { json } from '../../http/response';

const read = getPlayer({
  profiles: new DynamoProfileStore(dynamo, requireEnv(tables.profiles.envVar)),
  rejections: new DynamoRejectionLog(dynamo, requireEnv(tables.rejections.envVar)),
});

export const handler = consoleApi({ roles: ['admin', 'marketer', 'viewer'], mutates: false }).handler(async (event: ConsoleEvent) =>
  json(200, await read(event.console, profileIdOf(event.pathParameters))),
);
