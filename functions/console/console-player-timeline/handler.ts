import { tables } from '../../manifest/resources';
import { DynamoProfileStore } from '../../adapters/dynamo-profile-store';
import { DynamoTimelineStore } from '../../adapters/dynamo-timeline-store';
import { playerTimeline } from '../../back-office/players';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { profileIdOf } from '../../domain/profile-id';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { validQuery } from '../../http/json-body';
import { json } from '../../http/response';
import { validPlayerTimelineQuery, type PlayerTimelineQuery } from './schema';

const timeline = playerTimeline({
  profiles: new DynamoProfileStore(dynamo, requireEnv(tables.profiles.envVar)),
  timeline: new DynamoTimelineStore(dynamo, requireEnv(tables.timeline.envVar)),
});

export const handler = consoleApi({ roles: ['admin', 'marketer', 'viewer'], mutates: false })
  .use(validQuery(validPlayerTimelineQuery))
  .handler(async (event: ConsoleEvent) =>
    json(200, await timeline(event.console, profileIdOf(event.pathParameters), event.queryStringParameters as PlayerTimelineQuery)),
  );
