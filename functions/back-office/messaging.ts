/**
 * Messaging a player from the back office: one email through a channel of the
 * application to the player's stored address, or one web push to the
 * player's devices. The sending is send_email's and send_push's own
 * (functions/messaging/); what the back office adds:
 *
 * - the address is the player's `email` attribute, never one from the
 *   request (the console mails players, not whoever it names);
 * - the `urm_email_sent` / `urm_push_sent` event names who sent it
 *   (`user_id`, `user_email`, `action_id`), through the stream like any event;
 * - an `action_id` (a UUID the console chooses) makes the action happen once:
 *   it is claimed before anything goes out, and a retry answers the first
 *   call's outcome and writes the same event again (same insert id, so the
 *   timeline keeps one) instead of sending again;
 * - the audit log (`player.email_sent`, `player.push_sent`), once per action.
 */
import { createHash } from 'node:crypto';
import type { AttributeValue } from '../domain/attributes';
import type { AuditLog } from '../domain/audit';
import type { ChannelStore, SenderStore } from '../domain/channels';
import type { Mailer } from '../domain/email';
import { Conflict, NotFound, ValidationError } from '../domain/errors';
import { toStreamEntries, type RecordWriter } from '../domain/ingest';
import { webPushTokens } from '../domain/push';
import { purposes, type Purpose } from '../domain/send-gate';
import { partitionKey } from '../domain/stream-record';
import type { ProfileStore } from '../domain/timeline';
import { emailChannel, playerRecipient, type EmailMessage } from '../messaging/email';
import { gatedSend, type GatedOutcome, type GatedPorts, type HeldAnswer } from '../messaging/gated';
import type { PushCounts, PushMessage, PushPorts, SendBudget } from '../messaging/push';
import { audit } from './audit';
import type { Actor } from './players';

export { PLAYER_EMAIL_ATTRIBUTE, playerRecipient } from '../messaging/email';

/** What a claimed action left for its retries: the answer, the timeline event to write again, and whether it was audited. */
export interface ActionOutcome<Answer = Record<string, unknown>> {
  answer: Answer;
  event?: Record<string, unknown>;
  audit: { action: string; details: Record<string, unknown> };
  audited: boolean;
}

export interface ClaimedAction {
  /** What the action was: a retry must be the same request. */
  fingerprint: string;
  /** Absent while the first call is sending (or if it stopped half way). */
  outcome?: ActionOutcome;
}

/** Port: the back office's actions by id, claimed before they are sent. */
export interface SentActions {
  /** Claims the action: undefined when this call claimed it, else what an earlier call left. */
  claim(appId: string, actionId: string, fingerprint: string, at: Date): Promise<ClaimedAction | undefined>;
  /** Keeps the action's outcome for its retries. */
  settle(appId: string, actionId: string, outcome: ActionOutcome): Promise<void>;
  /** Gives the action back after it failed before anything went out: a retry sends it. */
  release(appId: string, actionId: string): Promise<void>;
}

export interface MessagingPorts extends PushPorts, Pick<GatedPorts, 'apps' | 'counts' | 'messageClaims' | 'outbox' | 'appTime' | 'unsubscribe'> {
  profiles: Pick<ProfileStore, 'get'>;
  channels: Pick<ChannelStore, 'get'>;
  senders: Pick<SenderStore, 'holders'>;
  mailer: Mailer;
  writer: RecordWriter;
  actions: SentActions;
  audit: AuditLog;
  newId: () => string;
  now: () => Date;
}

/** The message sent, but its event could not be written: re-sending the same action_id records it and sends nothing. */
export class SentNotRecorded extends Error {
  override name = 'SentNotRecorded';
  constructor(readonly actionId: string) {
    super(`action ${actionId} was sent, but its timeline event was not written`);
  }
}

async function playerAttributes(profiles: Pick<ProfileStore, 'get'>, appId: string, profileId: string) {
  // Consistent: an address or device stored a moment ago is seen.
  const stored = await profiles.get(partitionKey(appId, profileId), true);
  if (!stored?.exists) throw new NotFound('player not found');
  return JSON.parse(stored.attrs) as Record<string, AttributeValue | null>;
}

const who = (actor: Actor, actionId: string) => ({ user_id: actor.userId, user_email: actor.email, action_id: actionId });

/**
 * Does `send` once per action id: claims the id, sends, keeps the outcome,
 * writes the event (unless the send did), audits. A retry of a settled action
 * writes the same event again and audits only if the first call could not.
 */
function once(ports: Pick<MessagingPorts, 'actions' | 'writer' | 'audit' | 'now' | 'newId'>) {
  const record = audit(ports);
  return async <Answer extends object>(
    actor: Actor,
    action: { kind: string; profileId: string; actionId?: string; request: unknown },
    send: (actionId: string) => Promise<ActionOutcome<Answer> & { recorded: boolean }>,
  ): Promise<{ action_id: string } & Answer> => {
    const actionId = action.actionId ?? ports.newId();
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([action.kind, action.profileId, action.request]))
      .digest('base64url');
    const earlier = await ports.actions.claim(actor.appId, actionId, fingerprint, ports.now());
    let outcome: ActionOutcome<Answer>;
    let recorded = false;
    if (earlier) {
      if (earlier.fingerprint !== fingerprint) throw new Conflict('action_id was already used for another action');
      if (!earlier.outcome) throw new Conflict('this action_id is being sent, or its sending stopped half way: it is not sent again');
      outcome = earlier.outcome as ActionOutcome<Answer>;
    } else {
      let sent: ActionOutcome<Answer> & { recorded: boolean };
      try {
        sent = await send(actionId);
      } catch (error) {
        await ports.actions.release(actor.appId, actionId).catch(() => undefined);
        throw error;
      }
      ({ recorded, ...outcome } = sent);
      await ports.actions.settle(actor.appId, actionId, outcome as ActionOutcome);
    }
    if (outcome.event && !recorded) {
      const event = outcome.event;
      const at = new Date(String(event.urm_date_time));
      const receipt = await ports.writer
        .write(toStreamEntries('event', [event as Parameters<typeof toStreamEntries>[1][number]], actor.appId, { now: () => at, newId: ports.newId }))
        .catch(() => undefined);
      if (!receipt || receipt.FailedRecordCount > 0) throw new SentNotRecorded(actionId);
    }
    if (!outcome.audited) {
      await record({ appId: actor.appId, actor: { user_id: actor.userId, email: actor.email }, target: `player:${action.profileId}`, ...outcome.audit });
      await ports.actions.settle(actor.appId, actionId, { ...(outcome as ActionOutcome), audited: true });
    }
    return { action_id: actionId, ...outcome.answer };
  };
}

/** Why a console user sends: marketing (the default, fully gated) or an account message, with the reason audited. */
export interface SendPurpose {
  purpose?: Purpose;
  /** Required for a transactional message: why this is an account message, not marketing. */
  reason?: string;
  /** One of the application's topics (its settings). */
  topic?: string;
}

export type PlayerEmail = Omit<EmailMessage, 'to_addresses'> & { action_id?: string } & SendPurpose;

/** What the console answers when the gate said no, or later. */
export type GateAnswer = HeldAnswer;

type GatePorts = Pick<MessagingPorts, 'apps' | 'profiles' | 'counts' | 'messageClaims' | 'outbox' | 'writer' | 'appTime' | 'newId' | 'unsubscribe'>;

/** The purpose, the reason and the topic, checked: 400 for a transactional send without a reason or an unknown topic. */
async function purposeOf(ports: Pick<MessagingPorts, 'apps'>, appId: string, request: SendPurpose) {
  const purpose = request.purpose ?? 'marketing';
  const reason = request.reason?.trim();
  if (purpose === 'transactional' && !reason) throw new ValidationError(['reason is required for a transactional (account) message']);
  if (request.topic !== undefined) {
    const topics = (await ports.apps.get(appId))?.messaging?.topics ?? [];
    if (!topics.some((topic) => topic.name === request.topic)) throw new ValidationError([`topic ${request.topic} is not one of the application's topics`]);
  }
  return { purpose, ...(purpose === 'transactional' && reason ? { reason } : {}), ...(request.topic !== undefined ? { topic: request.topic } : {}) };
}

/** The answer and the audit details of a message the gate held back: the gate wrote its event. */
function heldBack(outcome: Exclude<GatedOutcome, { status: 'sent' }>): { answer: GateAnswer; details: Record<string, unknown> } {
  if (outcome.status === 'duplicate') throw new Conflict('this message was already sent');
  if (outcome.status === 'deferred')
    return { answer: { deferred_until: outcome.deferred_until, detail: outcome.detail }, details: { deferred_until: outcome.deferred_until } };
  return { answer: { suppressed: outcome.reason, detail: outcome.detail }, details: { suppressed: outcome.reason, detail: outcome.detail } };
}

/**
 * Sends one email through a channel of the actor's application to the
 * player's address, through the send gate: 404 for an unknown player
 * (another application's included) or channel, 409 when the player has no
 * address or the application no longer holds the channel's sender; a
 * refusal or deferral answers what the gate said.
 */
export function emailPlayer(ports: Pick<MessagingPorts, 'channels' | 'senders' | 'mailer' | 'actions' | 'audit' | 'now'> & GatePorts) {
  const channelFor = emailChannel(ports);
  const send = gatedSend({ ...ports, email: ports });
  const act = once(ports);
  return async (actor: Actor, profileId: string, request: PlayerEmail): Promise<{ action_id: string } & ({ message_id: string } | GateAnswer)> => {
    const { action_id: actionId, purpose: _p, reason: _r, topic: _t, ...message } = request;
    const why = await purposeOf(ports, actor.appId, request);
    playerRecipient(await playerAttributes(ports.profiles, actor.appId, profileId));
    const channel = await channelFor(actor.appId, message);
    return act<{ message_id: string } | GateAnswer>(actor, { kind: 'email', profileId, actionId, request: { ...message, ...why } }, async (id) => {
      const { reason, ...gate } = why;
      const sentBy = { ...who(actor, id), ...(reason ? { reason } : {}) };
      const outcome = await send({ appId: actor.appId, profileId, ...gate, messageId: id, message: { channel: 'email', email: message }, sentBy });
      const base = { channel_id: channel.channel_id, subject: message.subject, action_id: id, ...why };
      if (outcome.status !== 'sent') {
        const held = heldBack(outcome);
        return { answer: held.answer, audit: { action: 'player.email_sent', details: { ...base, ...held.details } }, audited: false, recorded: true };
      }
      const messageId = outcome.email?.message_id ?? '';
      return {
        answer: { message_id: messageId },
        ...(outcome.event ? { event: outcome.event } : {}),
        audit: { action: 'player.email_sent', details: { ...base, message_id: messageId } },
        audited: false,
        recorded: outcome.recorded,
      };
    });
  };
}

export type PlayerPush = Omit<PushMessage, 'profile_id'> & { action_id?: string } & SendPurpose;

/**
 * Sends one web push to the player's devices through the send gate, the
 * action id being the notification id: 404 for an unknown player or an
 * application without VAPID keys, 409 when the player has no web push device
 * or said no to notifications.
 */
export function pushPlayer(ports: Pick<MessagingPorts, keyof PushPorts | 'writer' | 'actions' | 'audit'> & GatePorts) {
  const send = gatedSend({ ...ports, push: ports });
  const act = once(ports);
  return async (actor: Actor, profileId: string, request: PlayerPush, budget?: SendBudget): Promise<{ action_id: string } & (PushCounts | GateAnswer)> => {
    const { action_id: actionId, purpose: _p, reason: _r, topic: _t, ...message } = request;
    const why = await purposeOf(ports, actor.appId, request);
    const attributes = await playerAttributes(ports.profiles, actor.appId, profileId);
    if (attributes.urm_receives_notifications === false) throw new Conflict('the player does not receive notifications (urm_receives_notifications is false)');
    if (webPushTokens(attributes).length === 0) throw new Conflict('the player has no web push device');
    return act<PushCounts | GateAnswer>(actor, { kind: 'push', profileId, actionId, request: { ...message, ...why } }, async (id) => {
      const { reason, ...gate } = why;
      const sentBy = { ...who(actor, id), ...(reason ? { reason } : {}) };
      const outcome = await send(
        { appId: actor.appId, profileId, ...gate, messageId: id, message: { channel: 'push', push: message }, sentBy },
        budget ? { budget } : {},
      );
      if (outcome.status !== 'sent') {
        const held = heldBack(outcome);
        return {
          answer: held.answer,
          audit: { action: 'player.push_sent', details: { title: message.title, ...why, ...held.details } },
          audited: false,
          recorded: true,
        };
      }
      const { reasons, ...counts } = outcome.push ?? { notification_id: id, sent: 0, failed: 0, removed: 0, unsent: 0, skipped: 0, reasons: {} };
      return {
        answer: counts,
        ...(outcome.event ? { event: outcome.event } : {}),
        audit: { action: 'player.push_sent', details: { title: message.title, ...why, ...counts, reasons } },
        audited: false,
        // Written with the send unless the stream refused it: then `once` writes it again, or the call fails for a retry.
        recorded: outcome.recorded,
      };
    });
  };
}

/** The body fields of a console send that choose its purpose (console players/schemas.ts). */
export const sendPurposeProperties = {
  purpose: { enum: purposes, description: 'marketing (the default: consent, topics, caps and quiet hours apply) or transactional (an account message)' },
  reason: { type: 'string', minLength: 1, maxLength: 500, description: 'Why a transactional message is one: required with it, audited.' },
  topic: { type: 'string', minLength: 1, maxLength: 64, description: "One of the application's topics." },
} as const;

/** The console's id of one send: a UUID (for a push, also the notification's id). */
export const actionIdSchema = {
  type: 'string',
  format: 'uuid',
  description: 'Chosen by the console (a UUID); re-sending the same action_id sends once and answers the first outcome.',
} as const;
