/** The back-office console's API, one function: its routes (routes.ts) over the container's stores and clients. */
import { randomUUID } from 'node:crypto';
import { kinesis } from '../adapters/clients/kinesis';
import { sesv2 } from '../adapters/clients/sesv2';
import { KinesisRecordWriter } from '../adapters/kinesis-record-writer';
import { secretStoreFromEnv } from '../adapters/secret-store';
import { unsubscribeLinks } from '../messaging/unsubscribe';
import { SesMailer } from '../adapters/ses-mailer';
import {
  auditLog,
  campaignResultsStore,
  broadcastStore,
  channelStore,
  deferredOutbox,
  deliveryClaims,
  enterpriseUserStore,
  figuresStore,
  journeyStore,
  keyStore,
  playerDirectory,
  playerSearch,
  portalSessionStore,
  postbackOutbox,
  payoutStore,
  postbackSettings,
  profileStore,
  reportStores,
  statementLock,
  rejectionLog,
  segmentStore,
  senderStore,
  sentActions,
  subIdReader,
  sentCounts,
  statementStore,
  templateStore,
  timelineStore,
} from '../adapters/stores';
import { AppVapidKeyring } from '../adapters/vapid-keyring';
import { WebPushSender } from '../adapters/web-push-sender';
import { postbackHostList } from '../domain/postbacks';
import { pushEndpointPolicy, pushLimits } from '../domain/push';
import { emailSending, ingestStream, postbackSending, pushSending } from '../manifest/resources';
import { nowFor } from '../runtime/clock';
import { optionalEnv, requireEnv } from '../runtime/config';
import { makeConsoleHandler } from './make-handler';

// The send gate's caps: what the sends count, the player page's gate line reads.
const counts = sentCounts();

// The stores an affiliate's report reads, which other routes share (the application above all).
const reports = reportStores();
const secrets = secretStoreFromEnv();
// Push endpoints: the browsers' push services and the hosts the operator adds, as send_push allows them.
const endpoints = pushEndpointPolicy(optionalEnv(pushSending.endpointHostsEnvVar, ''));

export const handler = makeConsoleHandler({
  sessions: portalSessionStore(),
  users: enterpriseUserStore(),
  ...reports,
  statementLock: statementLock(),
  keys: keyStore(),
  channels: channelStore(),
  senders: senderStore(),
  secrets,
  postbacks: { settings: postbackSettings(), log: postbackOutbox(), allowedHosts: postbackHostList(optionalEnv(postbackSending.allowedHostsEnvVar, '')) },
  directory: playerDirectory(),
  search: playerSearch(),
  profiles: profileStore(),
  timeline: timelineStore(),
  rejections: rejectionLog(),
  ledgers: reports.funnel,
  playerCounts: figuresStore(),
  appMoney: reports.funnel,
  segments: segmentStore(),
  templates: templateStore(),
  results: campaignResultsStore(),
  journeys: journeyStore(),
  broadcasts: broadcastStore(),
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  // No configuration set in the local stack: the variable is set only by the CDK stack.
  mailer: new SesMailer(sesv2, optionalEnv(emailSending.configurationSetEnvVar, '') || undefined),
  actions: sentActions(),
  claims: deliveryClaims(),
  // The send gate: caps, message ids (beside the push claims), the deferred outbox, the application's clock.
  counts,
  messageClaims: deliveryClaims(),
  outbox: deferredOutbox(),
  appTime: nowFor,
  unsubscribe: unsubscribeLinks({ secrets }),
  vapid: new AppVapidKeyring(reports.apps, secrets),
  pusher: new WebPushSender({ endpoints, timeoutMs: pushLimits.requestTimeoutMs }),
  endpoints,
  audit: auditLog(),
  subIds: subIdReader(),
  statements: statementStore(),
  payouts: payoutStore(),
  newId: randomUUID,
  now: () => new Date(),
  sentCounts: counts,
});
