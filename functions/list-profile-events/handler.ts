import { tables } from '../shared/manifest/resources';
import { DynamoProfileStore } from '../shared/adapters/dynamo-profile-store';
import { DynamoTimelineStore } from '../shared/adapters/dynamo-timeline-store';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { profileIdOf } from '../shared/domain/profile-id';
import { queryApi } from '../shared/http/json-api';
import { json } from '../shared/http/response';
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
