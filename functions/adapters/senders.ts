/**
 * The senders a function's container composes, once for every function that
 * sends: the send gate (functions/messaging/gated.ts) over the container's
 * stores and clients, and the template sender over it, with webhooks under
 * the postbacks' rules. send_template, the deferred sender, the journeys'
 * consumer and timers and the broadcast sender all take theirs from here, so
 * their wiring cannot drift apart.
 */
import { randomUUID } from 'node:crypto';
import type { Mailer } from '../domain/email';
import { postbackHostList } from '../domain/postbacks';
import { pushEndpointPolicy, pushLimits } from '../domain/push';
import { emailSending, ingestStream, postbackSending, pushSending } from '../manifest/resources';
import { gatedSend } from '../messaging/gated';
import { templateSender } from '../messaging/send-template';
import { unsubscribeLinks } from '../messaging/unsubscribe';
import { webhookSender } from '../messaging/webhook';
import { nowFor } from '../runtime/clock';
import { optionalEnv, requireEnv } from '../runtime/config';
import { kinesis } from './clients/kinesis';
import { sesv2 } from './clients/sesv2';
import { KinesisRecordWriter } from './kinesis-record-writer';
import { PostbackHttp } from './postback-http';
import { secretStoreFromEnv } from './secret-store';
import { SesMailer } from './ses-mailer';
import { appStore, channelStore, deferredOutbox, deliveryClaims, profileStore, senderStore, sentCounts, templateStore } from './stores';
import { AppVapidKeyring } from './vapid-keyring';
import { WebPushSender } from './web-push-sender';

export interface SenderOptions {
  /** Wraps the mailer (send_template counts each mail in its metrics). */
  mailer?: (mailer: Mailer) => Mailer;
}

/** The container's stores and clients a send needs, made once. */
function containerParts(options: SenderOptions) {
  const apps = appStore();
  const profiles = profileStore();
  const channels = channelStore();
  const claims = deliveryClaims();
  const secrets = secretStoreFromEnv();
  const writer = new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar));
  const unsubscribe = unsubscribeLinks({ secrets });
  const endpoints = pushEndpointPolicy(optionalEnv(pushSending.endpointHostsEnvVar, ''));
  // No configuration set in the local stack: the variable is set only by the CDK stack.
  const ses = new SesMailer(sesv2, optionalEnv(emailSending.configurationSetEnvVar, '') || undefined);
  const outbox = deferredOutbox();
  const send = gatedSend({
    apps,
    profiles,
    counts: sentCounts(),
    messageClaims: claims,
    outbox,
    writer,
    appTime: nowFor,
    newId: randomUUID,
    unsubscribe,
    email: { channels, senders: senderStore(), mailer: options.mailer ? options.mailer(ses) : ses },
    push: {
      vapid: new AppVapidKeyring(apps, secrets),
      pusher: new WebPushSender({ endpoints, timeoutMs: pushLimits.requestTimeoutMs }),
      claims,
      endpoints,
    },
  });
  return { apps, profiles, channels, claims, secrets, writer, unsubscribe, outbox, send };
}

/** The send gate with email and push, and the deferred outbox it keeps (the deferred sender reads it). */
export function containerGatedSend(options: SenderOptions = {}) {
  const { send, outbox, apps } = containerParts(options);
  return { send, outbox, apps };
}

/** A stored template to one player, through the gate; webhooks through the postbacks' guarded HTTP client. */
export function containerTemplateSender(options: SenderOptions = {}) {
  const parts = containerParts(options);
  const { apps, profiles, channels, claims, secrets, writer, unsubscribe, send } = parts;
  const sendTemplate = templateSender({
    templates: templateStore(),
    apps,
    profiles,
    channels,
    writer,
    newId: randomUUID,
    unsubscribe,
    send,
    webhook: webhookSender({
      profiles,
      messageClaims: claims,
      secrets,
      transport: new PostbackHttp({ allowedHosts: postbackHostList(optionalEnv(postbackSending.allowedHostsEnvVar, '')) }),
      writer,
      newId: randomUUID,
      appTime: nowFor,
    }),
  });
  return { ...parts, sendTemplate };
}
