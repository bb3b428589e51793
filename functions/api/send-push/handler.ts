import { randomUUID } from 'node:crypto';
import { kinesis } from '../../adapters/clients/kinesis';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { appStore, deferredOutbox, deliveryClaims, keyResolver, profileStore, sentCounts } from '../../adapters/stores';
import { AppVapidKeyring } from '../../adapters/vapid-keyring';
import { WebPushSender } from '../../adapters/web-push-sender';
import { pushEndpointPolicy, pushLimits } from '../../domain/push';
import { ingestStream, pushSending } from '../../manifest/resources';
import { nowFor } from '../../runtime/clock';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { makeSendPushHandler } from './make-handler';

const endpoints = pushEndpointPolicy(optionalEnv(pushSending.endpointHostsEnvVar, ''));

export const handler = makeSendPushHandler({
  keys: keyResolver(),
  profiles: profileStore(),
  vapid: new AppVapidKeyring(appStore(), secretStoreFromEnv()),
  pusher: new WebPushSender({ endpoints, timeoutMs: pushLimits.requestTimeoutMs }),
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  claims: deliveryClaims(),
  endpoints,
  newId: randomUUID,
  now: () => new Date(),
  gate: { apps: appStore(), counts: sentCounts(), messageClaims: deliveryClaims(), outbox: deferredOutbox(), appTime: nowFor },
});
