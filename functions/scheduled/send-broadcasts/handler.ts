import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { kinesis } from '../../adapters/clients/kinesis';
import { sesv2 } from '../../adapters/clients/sesv2';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { SesMailer } from '../../adapters/ses-mailer';
import {
  appStore,
  broadcastStore,
  channelStore,
  deferredOutbox,
  deliveryClaims,
  profileStore,
  segmentStore,
  senderStore,
  sentCounts,
  templateStore,
} from '../../adapters/stores';
import { AppVapidKeyring } from '../../adapters/vapid-keyring';
import { WebPushSender } from '../../adapters/web-push-sender';
import { pushEndpointPolicy, pushLimits } from '../../domain/push';
import { emailSending, ingestStream, pushSending } from '../../manifest/resources';
import { gatedSend } from '../../messaging/gated';
import { templateSender } from '../../messaging/send-template';
import { unsubscribeLinks } from '../../messaging/unsubscribe';
import { furthestAheadMs, nowFor } from '../../runtime/clock';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { makeSendBroadcastsHandler } from './make-handler';

const apps = appStore();
const profiles = profileStore();
const channels = channelStore();
const secrets = secretStoreFromEnv();
const writer = new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar));
const unsubscribe = unsubscribeLinks({ secrets });
const endpoints = pushEndpointPolicy(optionalEnv(pushSending.endpointHostsEnvVar, ''));

export const handler = makeSendBroadcastsHandler({
  broadcasts: broadcastStore(),
  segments: segmentStore(),
  profiles,
  apps,
  writer,
  send: templateSender({
    templates: templateStore(),
    apps,
    profiles,
    channels,
    writer,
    newId: randomUUID,
    unsubscribe,
    send: gatedSend({
      apps,
      profiles,
      counts: sentCounts(),
      messageClaims: deliveryClaims(),
      outbox: deferredOutbox(),
      writer,
      appTime: nowFor,
      newId: randomUUID,
      unsubscribe,
      email: {
        channels,
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
  }),
  appTime: nowFor,
  aheadMs: furthestAheadMs,
  now: () => new Date(),
  newId: randomUUID,
  sleep: (ms) => sleep(ms),
});
