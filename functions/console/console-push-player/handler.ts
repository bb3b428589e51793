import { randomUUID } from 'node:crypto';
import { ingestStream, pushSending, tables } from '../../manifest/resources';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { DynamoDeliveryClaims } from '../../adapters/dynamo-delivery-claims';
import { DynamoProfileStore } from '../../adapters/dynamo-profile-store';
import { DynamoSentActions } from '../../adapters/dynamo-sent-actions';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { AppVapidKeyring } from '../../adapters/vapid-keyring';
import { WebPushSender } from '../../adapters/web-push-sender';
import { pushPlayer, type PlayerPush } from '../../back-office/messaging';
import { dynamo } from '../../adapters/clients/dynamo';
import { kinesis } from '../../adapters/clients/kinesis';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { profileIdOf } from '../../domain/profile-id';
import { pushEndpointPolicy, pushLimits } from '../../domain/push';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { jsonBody, validBody } from '../../http/json-body';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
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
