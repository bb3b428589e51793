import { randomUUID } from 'node:crypto';
import { emailSending, ingestStream, tables } from '../../manifest/resources';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { DynamoChannelStore } from '../../adapters/dynamo-channel-store';
import { DynamoProfileStore } from '../../adapters/dynamo-profile-store';
import { DynamoSentActions } from '../../adapters/dynamo-sent-actions';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { SesMailer } from '../../adapters/ses-mailer';
import { emailPlayer, type PlayerEmail } from '../../back-office/messaging';
import { dynamo } from '../../adapters/clients/dynamo';
import { kinesis } from '../../adapters/clients/kinesis';
import { sesv2 } from '../../adapters/clients/sesv2';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { profileIdOf } from '../../domain/profile-id';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { jsonBody, validBody } from '../../http/json-body';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
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
