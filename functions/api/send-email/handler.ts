import { maxBodyBytesOf } from '../../manifest/body-limits';
import { emailSending, ingestStream, tables } from '../../manifest/resources';
import { DynamoChannelStore } from '../../adapters/dynamo-channel-store';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { SesMailer } from '../../adapters/ses-mailer';
import { dynamo } from '../../adapters/clients/dynamo';
import { kinesis } from '../../adapters/clients/kinesis';
import { sesv2 } from '../../adapters/clients/sesv2';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { jsonApi } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { countedMailer, flushMetrics } from '../../runtime/metrics';
import { sendEmail } from './core';
import { validSendEmail, type SendEmailResponse } from './schema';

const send = sendEmail({
  channels: new DynamoChannelStore(dynamo, requireEnv(tables.channels.envVar)),
  // No configuration set in the local stack: the variable is set only by the CDK stack.
  mailer: countedMailer(new SesMailer(sesv2, optionalEnv(emailSending.configurationSetEnvVar, '') || undefined)),
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  now: () => new Date(),
});

export const handler = jsonApi({
  scopes: ['comms'],
  validate: validSendEmail,
  maxBytes: maxBodyBytesOf('SendEmail'),
})
  .use(flushMetrics())
  .handler(async (event, context) => {
    const sent = await send(event.body, context.principal.appId);
    const ids = { app_id: context.principal.appId, channel_id: event.body.channel_id, message_id: sent.messageId };
    logger.info('Email sent', { ...ids, recipients: sent.recipients });
    if (sent.eventError) logger.error('Email sent, but its urm_email_sent event was not recorded', { ...ids, error: sent.eventError as Error });
    return json(200, { message_id: sent.messageId } satisfies SendEmailResponse);
  });
