import { randomUUID } from 'node:crypto';
import { ingestStream, pushSending, tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoDeliveryClaims } from '../../adapters/dynamo-delivery-claims';
import { DynamoProfileStore } from '../../adapters/dynamo-profile-store';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { AppVapidKeyring } from '../../adapters/vapid-keyring';
import { WebPushSender } from '../../adapters/web-push-sender';
import { dynamo } from '../../adapters/clients/dynamo';
import { kinesis } from '../../adapters/clients/kinesis';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { pushEndpointPolicy, pushLimits } from '../../domain/push';
import { jsonApi } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { countPushes, flushMetrics } from '../../runtime/metrics';
import { sendPush } from './core';
import { validSendPush, type SendPushResponse } from './schema';

const endpoints = pushEndpointPolicy(optionalEnv(pushSending.endpointHostsEnvVar, ''));
const send = sendPush({
  profiles: new DynamoProfileStore(dynamo, requireEnv(tables.profiles.envVar)),
  vapid: new AppVapidKeyring(new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)), secretStoreFromEnv()),
  pusher: new WebPushSender({ endpoints, timeoutMs: pushLimits.requestTimeoutMs }),
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  claims: new DynamoDeliveryClaims(dynamo, requireEnv(tables.pushDeliveries.envVar)),
  endpoints,
  newId: randomUUID,
  now: () => new Date(),
});

export const handler = jsonApi({
  scopes: ['comms'],
  validate: validSendPush,
})
  .use(flushMetrics())
  .handler(async (event, context) => {
    const { reasons, recordError, ...answer } = await send(event.body, context.principal.appId, { remainingMs: context.getRemainingTimeInMillis() });
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
