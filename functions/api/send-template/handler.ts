import { randomUUID } from 'node:crypto';
import { kinesis } from '../../adapters/clients/kinesis';
import { sesv2 } from '../../adapters/clients/sesv2';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { PostbackHttp } from '../../adapters/postback-http';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { SesMailer } from '../../adapters/ses-mailer';
import {
  appStore,
  channelStore,
  deferredOutbox,
  deliveryClaims,
  keyResolver,
  profileStore,
  senderStore,
  sentCounts,
  templateStore,
} from '../../adapters/stores';
import { AppVapidKeyring } from '../../adapters/vapid-keyring';
import { WebPushSender } from '../../adapters/web-push-sender';
import { postbackHostList } from '../../domain/postbacks';
import { pushEndpointPolicy, pushLimits } from '../../domain/push';
import { emailSending, ingestStream, postbackSending, pushSending } from '../../manifest/resources';
import { gatedSend } from '../../messaging/gated';
import { templateSender } from '../../messaging/send-template';
import { unsubscribeLinks } from '../../messaging/unsubscribe';
import { webhookSender } from '../../messaging/webhook';
import { nowFor } from '../../runtime/clock';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { countedMailer } from '../../runtime/metrics';
import { makeSendTemplateHandler } from './make-handler';

const apps = appStore();
const profiles = profileStore();
const channels = channelStore();
const claims = deliveryClaims();
const secrets = secretStoreFromEnv();
const writer = new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar));
const unsubscribe = unsubscribeLinks({ secrets });
const endpoints = pushEndpointPolicy(optionalEnv(pushSending.endpointHostsEnvVar, ''));

export const handler = makeSendTemplateHandler({
  keys: keyResolver(),
  now: () => new Date(),
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
      messageClaims: claims,
      outbox: deferredOutbox(),
      writer,
      appTime: nowFor,
      newId: randomUUID,
      unsubscribe,
      // No configuration set in the local stack: the variable is set only by the CDK stack.
      email: {
        channels,
        senders: senderStore(),
        mailer: countedMailer(new SesMailer(sesv2, optionalEnv(emailSending.configurationSetEnvVar, '') || undefined)),
      },
      push: {
        vapid: new AppVapidKeyring(apps, secrets),
        pusher: new WebPushSender({ endpoints, timeoutMs: pushLimits.requestTimeoutMs }),
        claims,
        endpoints,
      },
    }),
    webhook: webhookSender({
      profiles,
      messageClaims: claims,
      secrets,
      transport: new PostbackHttp({ allowedHosts: postbackHostList(optionalEnv(postbackSending.allowedHostsEnvVar, '')) }),
      writer,
      newId: randomUUID,
      appTime: nowFor,
    }),
  }),
});
