import { tables } from '../../manifest/resources';
import { DynamoProfileStore } from '../../adapters/dynamo-profile-store';
import { DynamoTimelineStore } from '../../adapters/dynamo-timeline-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { profileIdOf } from '../../domain/profile-id';
import { queryApi } from '../../http/json-api';
import { json } from '../../http/response';
import { listProfileEvents } from './core';
import { validEventsQuery } from './schema';

const list = listProfileEvents({
  timeline: new DynamoTimelineStore(dynamo, requireEnv(tables.timeline.envVar)),
  profiles: new DynamoProfileStore(dynamo, requireEnv(tables.profiles.envVar)),
});

export const handler = queryApi({
  scopes: ['server'],
  validate: validEventsQuery,
}).handler(async (event, context) => json(200, await list(context.principal.appId, event.queryStringParameters, profileIdOf(event.pathParameters))));
