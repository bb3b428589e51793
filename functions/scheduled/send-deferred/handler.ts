import { randomUUID } from 'node:crypto';
import { kinesis } from '../../adapters/clients/kinesis';
import { sesv2 } from '../../adapters/clients/sesv2';
import { DUE_PARTITIONS } from '../../adapters/dynamo-send-gate';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { SesMailer } from '../../adapters/ses-mailer';
import { appStore, channelStore, deferredOutbox, deliveryClaims, profileStore, senderStore, sentCounts } from '../../adapters/stores';
import { AppVapidKeyring } from '../../adapters/vapid-keyring';
import { WebPushSender } from '../../adapters/web-push-sender';
import { pushEndpointPolicy, pushLimits } from '../../domain/push';
import { emailSending, ingestStream, pushSending } from '../../manifest/resources';
import { gatedSend } from '../../messaging/gated';
import { unsubscribeLinks } from '../../messaging/unsubscribe';
import { furthestAheadMs, nowFor } from '../../runtime/clock';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { makeSendDeferredHandler } from './make-handler';

const apps = appStore();
const outbox = deferredOutbox();
const secrets = secretStoreFromEnv();
const endpoints = pushEndpointPolicy(optionalEnv(pushSending.endpointHostsEnvVar, ''));

export const handler = makeSendDeferredHandler({
  queue: {
    partitions: Array.from({ length: DUE_PARTITIONS }, (_, i) => `due#${i}`),
    due: (partition, by, limit) => outbox.due(partition, by, limit),
    take: (message, lease, until) => outbox.take(message, lease, until),
    done: (message, lease) => outbox.done(message, lease),
  },
  send: gatedSend({
    apps,
    profiles: profileStore(),
    counts: sentCounts(),
    messageClaims: deliveryClaims(),
    outbox,
    writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
    appTime: nowFor,
    newId: randomUUID,
    unsubscribe: unsubscribeLinks({ secrets }),
    email: {
      channels: channelStore(),
      senders: senderStore(),
      // No configuration set in the local stack: the variable is set only by the CDK stack.
      mailer: new SesMailer(sesv2, optionalEnv(emailSending.configurationSetEnvVar, '') || undefined),
    },
    push: {
      vapid: new AppVapidKeyring(apps, secrets),
      pusher: new WebPushSender({ endpoints, timeoutMs: pushLimits.requestTimeoutMs }),
      claims: deliveryClaims(),
      endpoints,
    },
  }),
  appTime: nowFor,
  aheadMs: furthestAheadMs,
  now: () => new Date(),
  newId: randomUUID,
});
