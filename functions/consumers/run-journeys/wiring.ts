/**
 * The journey runner as the consumer and the timer both wire it: the
 * container's stores, the template sender over the send gate (as
 * send-deferred wires the gate), the stream, the application's clock.
 */
import { randomUUID } from 'node:crypto';
import { kinesis } from '../../adapters/clients/kinesis';
import { sesv2 } from '../../adapters/clients/sesv2';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { SesMailer } from '../../adapters/ses-mailer';
import {
  appStore,
  channelStore,
  deferredOutbox,
  deliveryClaims,
  journeyStore,
  profileStore,
  segmentStateStore,
  senderStore,
  sentCounts,
  templateStore,
  timelineStore,
} from '../../adapters/stores';
import { AppVapidKeyring } from '../../adapters/vapid-keyring';
import { WebPushSender } from '../../adapters/web-push-sender';
import type { Attributes } from '../../domain/attributes';
import { journeyRunner, type JourneyRunner } from '../../domain/journeys/runner';
import type { JourneyStore } from '../../domain/journeys/store';
import { pushEndpointPolicy, pushLimits } from '../../domain/push';
import { statePk } from '../../domain/segments/model';
import { partitionKey } from '../../domain/stream-record';
import { emailSending, ingestStream, pushSending } from '../../manifest/resources';
import { gatedSend } from '../../messaging/gated';
import { templateSender } from '../../messaging/send-template';
import { unsubscribeLinks } from '../../messaging/unsubscribe';
import { nowFor } from '../../runtime/clock';
import { optionalEnv, requireEnv } from '../../runtime/config';

export function journeyRuntime(): { journeys: JourneyStore; runner: JourneyRunner } {
  const apps = appStore();
  const profiles = profileStore();
  const secrets = secretStoreFromEnv();
  const endpoints = pushEndpointPolicy(optionalEnv(pushSending.endpointHostsEnvVar, ''));
  const writer = new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar));
  const journeys = journeyStore();
  const states = segmentStateStore();
  const unsubscribe = unsubscribeLinks({ secrets });
  const send = templateSender({
    templates: templateStore(),
    apps,
    profiles,
    channels: channelStore(),
    writer,
    newId: randomUUID,
    unsubscribe,
    // Webhook templates need the postbacks' guarded HTTP client: not wired for journeys yet, so such a step fails once, visibly.
    webhook: async () => ({ status: 'failed', reason: 'webhook', detail: 'webhook templates are not sent by journeys yet' }),
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
  });
  const runner = journeyRunner({
    journeys,
    send,
    stream: writer,
    apps,
    profiles: {
      attributes: async (appId, profileId) => {
        const profile = await profiles.get(partitionKey(appId, profileId), true);
        return profile?.exists ? (JSON.parse(profile.attrs) as Attributes) : {};
      },
    },
    timeline: timelineStore(),
    members: async (appId, profileId) => {
      const state = (await states.states([statePk(appId, profileId)])).get(statePk(appId, profileId));
      return new Set(Object.entries(state?.memberships ?? {}).flatMap(([id, membership]) => (membership.member ? [id] : [])));
    },
    now: nowFor,
    newId: randomUUID,
  });
  return { journeys, runner };
}
