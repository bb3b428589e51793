/** POST /api/send_template, made from its ports: handler.ts passes the container's, a test its fakes. */
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { jsonApi, type KeyPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { flushMetrics } from '../../runtime/metrics';
import { sendTemplate, type SendTemplateDeps } from './core';
import { validSendTemplate, type SendTemplateResponse } from './schema';

export type SendTemplateHandlerPorts = KeyPorts & SendTemplateDeps;

export function makeSendTemplateHandler(ports: SendTemplateHandlerPorts) {
  const send = sendTemplate(ports);
  return jsonApi({ scopes: ['comms'], validate: validSendTemplate, maxBytes: maxBodyBytesOf('SendTemplate'), keys: ports.keys })
    .use(flushMetrics())
    .handler(async (event, context) => {
      const ids = { app_id: context.principal.appId, template_id: event.body.template_id };
      const result = await send(event.body, context.principal.appId);
      switch (result.status) {
        case 'held':
          logger.info('Template held by the send gate', { ...ids, ...result.held });
          return json(200, result.held satisfies SendTemplateResponse);
        case 'unrenderable':
          // The detail names the template's part and Liquid's complaint, never the player's data.
          return json(422, { message: 'the template does not render with this data', errors: [result.detail] });
        case 'undelivered':
          logger.warn('Webhook not delivered', { ...ids, detail: result.detail });
          return json(502, { message: `the webhook was not delivered: ${result.detail}` });
        case 'sent':
          logger.info('Template sent', { ...ids, kind: result.kind, message_id: result.messageId });
          if (!result.recorded) logger.error('Template sent, but its sent event was not recorded', { ...ids, message_id: result.messageId });
          return json(200, { message_id: result.messageId } satisfies SendTemplateResponse);
      }
    });
}
