import { randomUUID } from 'node:crypto';
import { ingestStream, pushSending, tables } from '../shared/manifest/resources';
import { maxBodyBytesOf } from '../shared/manifest/body-limits';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoAuditLog } from '../shared/adapters/dynamo-audit-log';
import { DynamoDeliveryClaims } from '../shared/adapters/dynamo-delivery-claims';
import { DynamoProfileStore } from '../shared/adapters/dynamo-profile-store';
import { DynamoSentActions } from '../shared/adapters/dynamo-sent-actions';
import { KinesisRecordWriter } from '../shared/adapters/kinesis-record-writer';
import { secretStoreFromEnv } from '../shared/adapters/secret-store';
import { AppVapidKeyring } from '../shared/adapters/vapid-keyring';
import { WebPushSender } from '../shared/adapters/web-push-sender';
import { pushPlayer, type PlayerPush } from '../shared/back-office/messaging';
import { dynamo } from '../shared/clients/dynamo';
import { kinesis } from '../shared/clients/kinesis';
import { optionalEnv, requireEnv } from '../shared/config';
import { profileIdOf } from '../shared/domain/profile-id';
import { pushEndpointPolicy, pushLimits } from '../shared/domain/push';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { jsonBody, validBody } from '../shared/http/json-body';
import { json } from '../shared/http/response';
import { logger } from '../shared/logger';
import { validPlayerPush } from './schema';

const endpoints = pushEndpointPolicy(optionalEnv(pushSending.endpointHostsEnvVar, ''));
const pushDeliveries = requireEnv(tables.pushDeliveries.envVar);
const send = pushPlayer({
  profiles: new DynamoProfileStore(dynamo, requireEnv(tables.profiles.envVar)),
  vapid: new AppVapidKeyring(new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)), secretStoreFromEnv()),
  pusher: new WebPushSender({ endpoints, timeoutMs: pushLimits.requestTimeoutMs }),
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  claims: new DynamoDeliveryClaims(dynamo, pushDeliveries),
  actions: new DynamoSentActions(dynamo, pushDeliveries),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
  endpoints,
  newId: randomUUID,
  now: () => new Date(),
});

export const handler = consoleApi({ roles: ['admin', 'marketer'], mutates: true })
  .use(jsonBody({ maxBytes: maxBodyBytesOf('ConsolePushPlayer') }))
  .use(validBody(validPlayerPush))
  .handler(async (event: ConsoleEvent, context) => {
    const sent = await send(event.console, profileIdOf(event.pathParameters), event.body as unknown as PlayerPush, {
      remainingMs: context.getRemainingTimeInMillis(),
    });
    logger.info('Push sent to a player from the back office', { app_id: event.console.appId, user_id: event.console.userId, ...sent });
    return json(200, sent);
  });
