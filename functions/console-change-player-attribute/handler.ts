import { randomUUID } from 'node:crypto';
import { ingestStream, tables } from '../shared/manifest/resources';
import { maxBodyBytesOf } from '../shared/manifest/operations';
import { DynamoProfileStore } from '../shared/adapters/dynamo-profile-store';
import { KinesisRecordWriter } from '../shared/adapters/kinesis-record-writer';
import { changePlayerAttribute, type AttributeChange } from '../shared/back-office/players';
import { dynamo, kinesis } from '../shared/clients';
import { requireEnv } from '../shared/config';
import { profileIdOf } from '../shared/domain/profile-id';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { jsonBody, validBody } from '../shared/http/json-body';
import { json } from '../shared/http/response';
import type { JsonEvent } from '../shared/http/types';
import { logger } from '../shared/logger';
import { validChangeAttribute } from './schema';

const change = changePlayerAttribute({
  profiles: new DynamoProfileStore(dynamo, requireEnv(tables.profiles.envVar)),
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  newId: randomUUID,
  now: () => new Date(),
});

export const handler = consoleApi<JsonEvent<AttributeChange>>({ roles: ['admin', 'marketer'], mutates: true })
  .use(jsonBody({ maxBytes: maxBodyBytesOf('ConsoleChangePlayerAttribute') }))
  .use(validBody(validChangeAttribute))
  .handler(async (event: ConsoleEvent<JsonEvent<AttributeChange>>) => {
    const profileId = profileIdOf(event.pathParameters);
    const answer = await change(event.console, profileId, event.body);
    // Until lane S's audit log lands (audit(office)), the action is on the player's timeline and in the log.
    logger.info('Back-office action', { app_id: event.console.appId, user_id: event.console.userId, action: `${event.body.action}_attribute`, profile_id: profileId, message_id: answer.message_id });
    return json(200, answer);
  });
