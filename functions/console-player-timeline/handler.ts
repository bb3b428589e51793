import { tables } from '../shared/manifest/resources';
import { DynamoProfileStore } from '../shared/adapters/dynamo-profile-store';
import { DynamoTimelineStore } from '../shared/adapters/dynamo-timeline-store';
import { playerTimeline } from '../shared/back-office/players';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { profileIdOf } from '../shared/domain/profile-id';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { validQuery } from '../shared/http/json-body';
import { json } from '../shared/http/response';
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
