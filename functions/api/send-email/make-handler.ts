/** POST /api/send_email, made from its ports: handler.ts passes the container's, a test its fakes. */
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { jsonApi, type KeyPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { countedMailer, flushMetrics } from '../../runtime/metrics';
import { sendEmail, type SendEmailDeps } from './core';
import { validSendEmail, type SendEmailResponse } from './schema';

export type SendEmailHandlerPorts = KeyPorts & SendEmailDeps;

export function makeSendEmailHandler(ports: SendEmailHandlerPorts) {
  const send = sendEmail({ ...ports, mailer: countedMailer(ports.mailer) });
  return jsonApi({ scopes: ['comms'], validate: validSendEmail, maxBytes: maxBodyBytesOf('SendEmail'), keys: ports.keys })
    .use(flushMetrics())
    .handler(async (event, context) => {
      const sent = await send(event.body, context.principal.appId);
      if (sent.held) {
        // Counted per reason by the event consumer; the log says only that the gate held it.
        logger.info('Email held by the send gate', { app_id: context.principal.appId, channel_id: event.body.channel_id, ...sent.held });
        return json(200, sent.held satisfies SendEmailResponse);
      }
      const ids = { app_id: context.principal.appId, channel_id: event.body.channel_id, message_id: sent.messageId };
      logger.info('Email sent', { ...ids, recipients: sent.recipients });
      if (sent.eventError) logger.error('Email sent, but its urm_email_sent event was not recorded', { ...ids, error: sent.eventError as Error });
      return json(200, { message_id: sent.messageId } satisfies SendEmailResponse);
    });
}
