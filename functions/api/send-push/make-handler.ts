/** POST /api/send_push, made from its ports: handler.ts passes the container's, a test its fakes. */
import { jsonApi, type KeyPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { countPushes, flushMetrics } from '../../runtime/metrics';
import { sendPush, type SendPushDeps } from './core';
import { validSendPush, type SendPushResponse } from './schema';

export type SendPushHandlerPorts = KeyPorts & SendPushDeps;

export function makeSendPushHandler(ports: SendPushHandlerPorts) {
  const send = sendPush(ports);
  return jsonApi({ scopes: ['comms'], validate: validSendPush, keys: ports.keys })
    .use(flushMetrics())
    .handler(async (event, context) => {
      const result = await send(event.body, context.principal.appId, { remainingMs: context.getRemainingTimeInMillis() });
      if ('held' in result) {
        logger.info('Push held by the send gate', { app_id: context.principal.appId, ...result.held });
        return json(200, result.held satisfies SendPushResponse);
      }
      const { reasons, recordError, ...answer } = result;
      countPushes(answer);
      const ids = { app_id: context.principal.appId, notification_id: answer.notification_id };
      logger.info('Push sent', {
        ...ids,
        sent: answer.sent,
        failed: answer.failed,
        removed: answer.removed,
        unsent: answer.unsent,
        skipped: answer.skipped,
        reasons,
      });
      if (recordError) logger.error('Push sent, but its token removal or urm_push_sent event was not recorded', { ...ids, error: recordError as Error });
      return json(200, answer satisfies SendPushResponse);
    });
}
