/**
 * Every gated send goes through here (docs/api.md, "The send gate"): the
 * console's messages, send_email and send_push with a `purpose`, the
 * deferred sender, and the campaigns and journeys to come. It reads the
 * application and the player consistently, asks `decide()`, and then
 * records a refusal, stores a deferral, or claims the cap and the message id
 * and sends. A read that fails throws: the caller retries, nothing goes out
 * on a guess.
 */
import { createHash } from 'node:crypto';
import type { AttributeValue } from '../domain/attributes';
import type { App, AppStore } from '../domain/apps';
import { toStreamEntries, type RecordWriter } from '../domain/ingest';
import { limits } from '../domain/limits';
import type { DeliveryClaims } from '../domain/push';
import {
  decide,
  emailAttributeOf,
  localMoment,
  MESSAGE_SUPPRESSED_EVENT,
  playerTimeZone,
  purposes,
  refusalReasons,
  type GateChannel,
  type Purpose,
  type RefusalReason,
  type SentCounts,
  type SuppressionReason,
} from '../domain/send-gate';
import { partitionKey } from '../domain/stream-record';
import type { ProfileStore } from '../domain/timeline';
import { composeMail, emailChannel, emailSentEvent, playerRecipient, type EmailMessage, type EmailPorts, type Recipient } from './email';
import type { UnsubscribeCampaign } from '../domain/unsubscribe-token';
import { withUnsubscribe } from './unsubscribe';
import { pushToProfile, type PushCounts, type PushMessage, type PushPorts, type SendBudget } from './push';

/** An email as a gated send carries it: to the player's own address unless `to_addresses` names others (send_email). */
export type GatedEmail = Omit<EmailMessage, 'to_addresses'> & { to_addresses?: Recipient[] };
export type GatedPush = Omit<PushMessage, 'profile_id'>;

/** One message to one player: what the deferred outbox keeps, whole, to send it later. */
export interface GatedRequest {
  appId: string;
  profileId: string;
  purpose: Purpose;
  topic?: string;
  /** Derived, never random: the same id never sends twice (the console's action id, the notification id, a hash of the request). */
  messageId: string;
  message: { channel: 'email'; email: GatedEmail } | { channel: 'push'; push: GatedPush };
  /** Who sent it, on the timeline events (user_id, user_email, action_id from the console; a campaign's ids). */
  sentBy?: Record<string, string>;
  /** Extra mail tags (a campaign's ids: values of `[A-Za-z0-9_-]`), which SES's events about the mail carry back. */
  tags?: Record<string, string>;
}

/** What a caller answers when the gate held the message back: refused, or deferred to the end of quiet hours. */
export type HeldAnswer = { suppressed: RefusalReason; detail: string } | { deferred_until: string; detail: string };

export type GatedOutcome =
  | {
      status: 'sent';
      email?: { message_id: string };
      push?: PushCounts & { reasons: Record<string, number> };
      recorded: boolean;
      event?: Record<string, unknown>;
    }
  | { status: 'suppressed'; reason: RefusalReason; detail: string }
  | { status: 'deferred'; deferred_until: string; detail: string }
  /** An earlier call with this message id sent it: nothing more goes out. */
  | { status: 'duplicate' };

/** Port: messages waiting for the end of quiet hours, found by when they are due. */
export interface DeferredOutbox {
  /**
   * Stores the message due at `until`, once: a retry of the same message id stores nothing more. With `lease`
   * (the deferred sender's, which holds the message), moves the held message's due time instead.
   */
  defer(request: GatedRequest, until: Date, lease?: string): Promise<void>;
}

export interface DueMessage {
  appId: string;
  messageId: string;
  dueAt: string;
  request: GatedRequest;
}

/** Port: the deferred outbox as the deferred sender reads it (functions/scheduled/send-deferred). */
export interface DueQueue {
  partitions: readonly string[];
  due(partition: string, by: Date, limit: number): Promise<DueMessage[]>;
  take(message: DueMessage, lease: string, leaseUntil: Date): Promise<boolean>;
  done(message: DueMessage, lease: string): Promise<void>;
}

export interface GatedPorts {
  apps: Pick<AppStore, 'get'>;
  profiles: Pick<ProfileStore, 'get'>;
  counts: SentCounts;
  /** Claimed per message id right before the provider call (sort key `gate#message`): a message goes out once. */
  messageClaims: DeliveryClaims;
  outbox: DeferredOutbox;
  writer: RecordWriter;
  /** The application's clock (functions/runtime/clock.ts `nowFor`). */
  appTime: (appId: string) => Date;
  newId: () => string;
  /** The unsubscribe address a marketing mail carries (./unsubscribe.ts, `unsubscribeLinks`): needed to send marketing email. */
  unsubscribe?: (app: Pick<App, 'app_id' | 'portal_origin'>, profileId: string, topic?: string, campaign?: UnsubscribeCampaign) => Promise<{ url: string }>;
  email?: EmailPorts;
  push?: Omit<PushPorts, 'profiles' | 'writer' | 'newId' | 'now'>;
}

export interface GatedOptions {
  budget?: SendBudget;
  /** The deferred sender's hold on the message: a new deferral moves it rather than storing it again. */
  lease?: string;
  /**
   * The application and the player as the caller read them (consistently) a moment ago, for this message: the gate
   * decides on them instead of reading both again. Only the template sender gives them, which reads them to render.
   */
  read?: { app: App | undefined; profile: StoredProfileRead | undefined };
}

/** A player's profile item as ProfileStore.get answers it. */
export type StoredProfileRead = Awaited<ReturnType<ProfileStore['get']>>;

/** The claim of one message id (the delivery-claims sort key): every channel's, a webhook's too. */
export const MESSAGE_CLAIM = 'gate#message';

const bounded = (prefix: string, id: string) => {
  const readable = `${prefix}${id}`;
  return readable.length <= limits.insertIdLength ? readable : `${prefix}${createHash('sha256').update(id, 'utf8').digest('hex')}`;
};

/** The insert id of a suppression: the same refusal or deferral of one message is stored once. */
export function suppressionInsertId(messageId: string, reason: SuppressionReason, until?: string): string {
  return bounded('urm-gate-', `${messageId}:${reason}${until ? `:${until}` : ''}`);
}

/** The insert id of a message that could not be made (a template that does not render): stored once per message. */
export function failureInsertId(messageId: string): string {
  return bounded('urm-failed-', messageId);
}

/** The insert id of a webhook's `urm_webhook_sent`: stored once per message. */
export function webhookSentInsertId(messageId: string): string {
  return bounded('urm-webhook-', messageId);
}

/** A message id from what a request holds: the same request is the same message. */
export function messageIdOf(...parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts), 'utf8').digest('base64url');
}

/** The same, shaped as a UUID (a push's notification id is one). */
export function messageUuidOf(...parts: unknown[]): string {
  const hex = createHash('sha256').update(JSON.stringify(parts), 'utf8').digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** send_email's and send_push's optional fields that put a message through the gate (docs/api.md, "The send gate"). */
export const gatedRequestProperties = {
  purpose: {
    enum: purposes,
    description:
      'Puts the message through the send gate for the profile: `marketing` (every rule) or `transactional` (suppression only). Absent: not gated, the integrator is responsible for consent.',
  },
  topic: { type: 'string', minLength: 1, maxLength: 64, description: "With `purpose`: one of the application's topics; a player who left it is not sent to." },
} as const;

/** The 200 answers of a gated send that sent nothing. */
export const suppressedAnswerSchema = {
  type: 'object',
  required: ['suppressed', 'detail'],
  additionalProperties: false,
  properties: {
    suppressed: { enum: refusalReasons, description: 'Why the gate refused: nothing was sent, and `urm_message_suppressed` is on the timeline.' },
    detail: { type: 'string', description: 'The reason in words, e.g. "self-excluded until 2027-01-01".' },
  },
} as const;
export const deferredAnswerSchema = {
  type: 'object',
  required: ['deferred_until', 'detail'],
  additionalProperties: false,
  properties: {
    deferred_until: { type: 'string', format: 'date-time', description: 'Quiet hours: the message is kept and sent then, once, if the gate still allows it.' },
    detail: { type: 'string' },
  },
} as const;

/** Writes `urm_message_suppressed` for a message the gate held back (any channel: a webhook's too). */
export function recordSuppression(ports: Pick<GatedPorts, 'writer' | 'newId'>) {
  return async (
    request: Pick<GatedRequest, 'appId' | 'profileId' | 'purpose' | 'topic' | 'messageId' | 'sentBy'>,
    channel: string,
    at: Date,
    reason: SuppressionReason,
    detail: string,
    until?: string,
  ): Promise<void> => {
    const event = {
      app_id: request.appId,
      profile_id: request.profileId,
      event: MESSAGE_SUPPRESSED_EVENT,
      urm_date_time: at.toISOString(),
      urm_insert_id: suppressionInsertId(request.messageId, reason, until),
      channel,
      purpose: request.purpose,
      reason,
      detail,
      ...(request.topic !== undefined ? { topic: request.topic } : {}),
      ...(until !== undefined ? { deferred_until: until } : {}),
      message_id: request.messageId,
      ...request.sentBy,
    };
    // Not recorded is not refused: the caller retries, and the same insert id keeps one on the timeline.
    const receipt = await ports.writer.write(toStreamEntries('event', [event], request.appId, { newId: ports.newId, now: () => at }));
    if (receipt.FailedRecordCount > 0) throw new Error('the stream refused the urm_message_suppressed event');
  };
}

/** The campaign a request's events name (a campaign's send puts it in `sentBy`): its unsubscribe link carries it. */
export function campaignOfRequest(request: Pick<GatedRequest, 'sentBy'>): UnsubscribeCampaign | undefined {
  const by = request.sentBy;
  if (by?.campaign === undefined) return undefined;
  return {
    campaign: by.campaign,
    ...(by.campaign_step !== undefined ? { step: by.campaign_step } : {}),
    ...(by.campaign_version !== undefined ? { version: by.campaign_version } : {}),
  };
}

export function gatedSend(ports: GatedPorts) {
  const channelFor = ports.email ? emailChannel(ports.email) : undefined;
  const push = ports.push
    ? pushToProfile({ ...ports.push, profiles: ports.profiles, writer: ports.writer, newId: ports.newId, now: () => new Date() })
    : undefined;
  const suppressed = recordSuppression(ports);
  const record = (request: GatedRequest, at: Date, reason: SuppressionReason, detail: string, until?: string) =>
    suppressed(request, request.message.channel, at, reason, detail, until);

  return async (request: GatedRequest, options: GatedOptions = {}): Promise<GatedOutcome> => {
    const { appId, profileId, purpose } = request;
    const channel: GateChannel = request.message.channel;
    // Email's own rules first (the channel, the sender): a message that could never go is a 4xx, not a deferral.
    const mailChannel = request.message.channel === 'email' ? await requireEmail()(appId, request.message.email) : undefined;

    const app = options.read ? options.read.app : await ports.apps.get(appId);
    const settings = app?.messaging;
    // Consistent: an exclusion the stream applied a moment ago is honoured.
    const stored = options.read ? options.read.profile : await ports.profiles.get(partitionKey(appId, profileId), true);
    const attributes = stored?.exists ? (JSON.parse(stored.attrs) as Record<string, AttributeValue | null>) : undefined;
    const now = ports.appTime(appId);
    const moment = localMoment(now, playerTimeZone(attributes ?? {}, settings));
    const marketing = purpose === 'marketing';
    const sent = attributes && marketing ? await ports.counts.read(appId, profileId, channel, moment) : { day: 0, week: 0 };
    const answer = decide({ attributes, channel, ...(request.topic !== undefined ? { topic: request.topic } : {}), purpose, settings, now, sent });

    if (answer.verdict === 'refuse') {
      await record(request, now, answer.reason, answer.detail);
      return { status: 'suppressed', reason: answer.reason, detail: answer.detail };
    }
    if (answer.verdict === 'defer') {
      const until = answer.until.toISOString();
      await ports.outbox.defer(request, answer.until, options.lease);
      await record(request, now, answer.reason, answer.detail, until);
      return { status: 'deferred', deferred_until: until, detail: answer.detail };
    }

    // The player's own address (the attribute the settings name), or the integrator's recipients: checked before
    // anything is claimed, so an address that is no address (409) takes no cap place and no message id.
    const to =
      request.message.channel === 'email' && attributes
        ? (request.message.email.to_addresses ?? [playerRecipient(attributes, emailAttributeOf(settings))])
        : undefined;
    // Every marketing mail can be left with one click (RFC 8058); an application with nowhere to leave by sends none (409).
    const unsubscribe = to && marketing && app ? await requireUnsubscribe()(app, profileId, request.topic, campaignOfRequest(request)) : undefined;
    const caps = settings?.caps?.[channel];
    if (marketing && !(await ports.counts.claim(appId, profileId, channel, moment, caps))) {
      // Another send took the last place between the read and the claim.
      const reason = caps?.daily !== undefined && sent.day + 1 >= caps.daily ? 'daily_cap' : 'weekly_cap';
      const detail = reason === 'daily_cap' ? `${caps?.daily} per day reached` : `${caps?.weekly} per week reached`;
      await record(request, now, reason, detail);
      return { status: 'suppressed', reason, detail };
    }
    const giveBack = async () => {
      if (marketing) await ports.counts.release(appId, profileId, channel, moment).catch(() => undefined);
    };
    let claimed: boolean;
    try {
      claimed = await ports.messageClaims.claim(appId, request.messageId, MESSAGE_CLAIM);
    } catch (error) {
      await giveBack();
      throw error;
    }
    if (!claimed) {
      await giveBack();
      return { status: 'duplicate' };
    }
    const releaseAll = async () => {
      await giveBack();
      await ports.messageClaims.release(appId, request.messageId, MESSAGE_CLAIM).catch(() => undefined);
    };

    if (request.message.channel === 'email') {
      const message = request.message.email;
      if (!mailChannel || !ports.email || !to) throw new Error('email is not wired for this function');
      const composed = composeMail({ ...message, to_addresses: to }, mailChannel, profileId, request.tags);
      const mail = unsubscribe ? withUnsubscribe(composed, unsubscribe.url) : composed;
      let messageId: string;
      try {
        messageId = await ports.email.mailer.send(mail);
      } catch (error) {
        await releaseAll();
        throw error;
      }
      const at = new Date();
      const extra = { purpose, ...(request.topic !== undefined ? { topic: request.topic } : {}), ...request.sentBy };
      const event = emailSentEvent({ appId, profileId, channel: mailChannel, subject: message.subject, messageId, at }, extra);
      const receipt = await ports.writer.write(toStreamEntries('event', [event], appId, { newId: ports.newId, now: () => at })).catch(() => undefined);
      return { status: 'sent', email: { message_id: messageId }, recorded: receipt !== undefined && receipt.FailedRecordCount === 0, event };
    }

    if (!push) throw new Error('push is not wired for this function');
    let pushed: Awaited<ReturnType<typeof push>>;
    try {
      pushed = await push(
        appId,
        { ...request.message.push, profile_id: profileId },
        {
          notificationId: request.messageId,
          ...(options.budget ? { budget: options.budget } : {}),
          eventAttributes: { purpose, ...(request.topic !== undefined ? { topic: request.topic } : {}), ...request.sentBy },
        },
      );
    } catch (error) {
      await releaseAll();
      throw error;
    }
    const { recordError, event, ...counts } = pushed;
    // Nothing reached a device: the cap place and the message id go back for a retry.
    if (counts.sent === 0 && counts.skipped === 0) await releaseAll();
    return { status: 'sent', push: counts, recorded: recordError === undefined, ...(event ? { event } : {}) };
  };

  function requireUnsubscribe() {
    if (!ports.unsubscribe) throw new Error('unsubscribe links are not wired for this function');
    return ports.unsubscribe;
  }

  function requireEmail() {
    if (!channelFor) throw new Error('email is not wired for this function');
    return channelFor;
  }
}
