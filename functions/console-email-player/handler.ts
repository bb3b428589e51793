import { randomUUID } from 'node:crypto';
import { emailSending, ingestStream, tables } from '../shared/manifest/resources';
import { maxBodyBytesOf } from '../shared/manifest/body-limits';
import { DynamoAuditLog } from '../shared/adapters/dynamo-audit-log';
import { DynamoChannelStore } from '../shared/adapters/dynamo-channel-store';
import { DynamoProfileStore } from '../shared/adapters/dynamo-profile-store';
import { DynamoSentActions } from '../shared/adapters/dynamo-sent-actions';
import { KinesisRecordWriter } from '../shared/adapters/kinesis-record-writer';
import { SesMailer } from '../shared/adapters/ses-mailer';
import { emailPlayer, type PlayerEmail } from '../shared/back-office/messaging';
import { dynamo } from '../shared/clients/dynamo';
import { kinesis } from '../shared/clients/kinesis';
import { sesv2 } from '../shared/clients/sesv2';
import { optionalEnv, requireEnv } from '../shared/config';
import { profileIdOf } from '../shared/domain/profile-id';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { jsonBody, validBody } from '../shared/http/json-body';
import { json } from '../shared/http/response';
import { logger } from '../shared/logger';
import { validPlayerEmail } from './schema';

const send = emailPlayer({
  profiles: new DynamoProfileStore(dynamo, requireEnv(tables.profiles.envVar)),
  channels: new DynamoChannelStore(dynamo, requireEnv(tables.channels.envVar)),
  // No configuration set in the local stack: the variable is set only by the CDK stack.
  mailer: new SesMailer(sesv2, optionalEnv(emailSending.configurationSetEnvVar, '') || undefined),
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  actions: new DynamoSentActions(dynamo, requireEnv(tables.pushDeliveries.envVar)),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
  newId: randomUUID,
  now: () => new Date(),
});

export const handler = consoleApi({ roles: ['admin', 'marketer'], mutates: true })
  .use(jsonBody({ maxBytes: maxBodyBytesOf('ConsoleEmailPlayer') }))
  .use(validBody(validPlayerEmail))
  .handler(async (event: ConsoleEvent) => {
    const sent = await send(event.console, profileIdOf(event.pathParameters), event.body as unknown as PlayerEmail);
    logger.info('Email sent to a player from the back office', { app_id: event.console.appId, user_id: event.console.userId, ...sent });
    return json(200, sent);
  });
