import { randomUUID } from 'node:crypto';
import { ingestStream, pushSending, tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoDeliveryClaims } from '../shared/adapters/dynamo-delivery-claims';
import { DynamoProfileStore } from '../shared/adapters/dynamo-profile-store';
import { KinesisRecordWriter } from '../shared/adapters/kinesis-record-writer';
import { secretStoreFromEnv } from '../shared/adapters/secret-store';
import { AppVapidKeyring } from '../shared/adapters/vapid-keyring';
import { WebPushSender } from '../shared/adapters/web-push-sender';
import { dynamo } from '../shared/clients/dynamo';
import { kinesis } from '../shared/clients/kinesis';
import { optionalEnv, requireEnv } from '../shared/config';
import { pushEndpointPolicy, pushLimits } from '../shared/domain/push';
import { jsonApi } from '../shared/http/json-api';
import { json } from '../shared/http/response';
import { logger } from '../shared/logger';
import { countPushes, flushMetrics } from '../shared/metrics';
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
