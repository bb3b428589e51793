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
import { displayNameSchema, emailAddressSchema, type Mailer } from '../domain/email';
import { Conflict, NotFound } from '../domain/errors';
import { toStreamEntries, type RecordWriter } from '../domain/ingest';
import { webPushTokens } from '../domain/push';
import { partitionKey } from '../domain/stream-record';
import type { ProfileStore } from '../domain/timeline';
import { compileValidator, type Validator } from '../domain/validation';
import { composeMail, emailChannel, emailSentEvent, type EmailMessage, type Recipient } from '../messaging/email';
import { pushToProfile, type PushCounts, type PushMessage, type PushPorts, type SendBudget } from '../messaging/push';
import { audit } from './audit';
import type { Actor } from './players';

/** The attribute a player's email address is read from (docs/api.md, "Messaging a player"). */
export const PLAYER_EMAIL_ATTRIBUTE = 'email';

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

export interface MessagingPorts extends PushPorts {
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

const checkAddress = compileValidator(emailAddressSchema, 'email');
const checkName = compileValidator(displayNameSchema, 'name');
const passes = (check: Validator<string>, value: unknown): boolean => {
  try {
    check(value);
    return true;
  } catch {
    return false;
  }
};
const validAddress = (value: string) => passes(checkAddress, value);
const validName = (value: unknown) => passes(checkName, value);

/**
 * The player's address, with a name when the player has a usable one (`name`,
 * else `first_name` and `last_name`); 409 when there is no address.
 */
export function playerRecipient(attributes: Record<string, AttributeValue | null>): Recipient {
  const address = attributes[PLAYER_EMAIL_ATTRIBUTE];
  if (address === undefined || address === null) throw new Conflict(`the player has no email address (attribute ${PLAYER_EMAIL_ATTRIBUTE})`);
  if (typeof address !== 'string' || !validAddress(address)) {
    throw new Conflict(`the player's ${PLAYER_EMAIL_ATTRIBUTE} attribute is not an email address`);
  }
  const text = (name: string) => (typeof attributes[name] === 'string' ? (attributes[name] as string).trim() : '');
  const name = text('name') || [text('first_name'), text('last_name')].filter(Boolean).join(' ');
  return { email: address, name: validName(name) ? name : '' };
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

export type PlayerEmail = Omit<EmailMessage, 'to_addresses'> & { action_id?: string };

/**
 * Sends one email through a channel of the actor's application to the
 * player's address: 404 for an unknown player (another application's
 * included) or channel, 409 when the player has no address or the
 * application no longer holds the channel's sender.
 */
export function emailPlayer(ports: Pick<MessagingPorts, 'profiles' | 'channels' | 'senders' | 'mailer' | 'writer' | 'actions' | 'audit' | 'newId' | 'now'>) {
  const channelFor = emailChannel(ports);
  const act = once(ports);
  return async (actor: Actor, profileId: string, request: PlayerEmail): Promise<{ action_id: string; message_id: string }> => {
    const { action_id: actionId, ...message } = request;
    const recipient = playerRecipient(await playerAttributes(ports.profiles, actor.appId, profileId));
    const channel = await channelFor(actor.appId, message);
    return act(actor, { kind: 'email', profileId, actionId, request: message }, async (id) => {
      const messageId = await ports.mailer.send(composeMail({ ...message, to_addresses: [recipient] }, channel, profileId));
      const at = ports.now();
      return {
        answer: { message_id: messageId },
        event: emailSentEvent({ appId: actor.appId, profileId, channel, subject: message.subject, messageId, at }, who(actor, id)),
        audit: { action: 'player.email_sent', details: { channel_id: channel.channel_id, subject: message.subject, message_id: messageId, action_id: id } },
        audited: false,
        recorded: false,
      };
    });
  };
}

export type PlayerPush = Omit<PushMessage, 'profile_id'> & { action_id?: string };

/**
 * Sends one web push to the player's devices, the action id being the
 * notification id: 404 for an unknown player or an application without VAPID
 * keys, 409 when the player has no web push device or said no to
 * notifications.
 */
export function pushPlayer(ports: Pick<MessagingPorts, keyof PushPorts | 'writer' | 'actions' | 'audit'>) {
  const push = pushToProfile(ports);
  const act = once(ports);
  return async (actor: Actor, profileId: string, request: PlayerPush, budget?: SendBudget): Promise<{ action_id: string } & PushCounts> => {
    const { action_id: actionId, ...message } = request;
    const attributes = await playerAttributes(ports.profiles, actor.appId, profileId);
    if (attributes.urm_receives_notifications === false) throw new Conflict('the player does not receive notifications (urm_receives_notifications is false)');
    if (webPushTokens(attributes).length === 0) throw new Conflict('the player has no web push device');
    return act(actor, { kind: 'push', profileId, actionId, request: message }, async (id) => {
      const { reasons, recordError, event, ...counts } = await push(
        actor.appId,
        { ...message, profile_id: profileId },
        { notificationId: id, budget, eventAttributes: who(actor, id) },
      );
      return {
        answer: counts,
        ...(event ? { event } : {}),
        audit: { action: 'player.push_sent', details: { title: message.title, ...counts, reasons } },
        audited: false,
        // Written with the send unless the stream refused it: then `once` writes it again, or the call fails for a retry.
        recorded: recordError === undefined,
      };
    });
  };
}

/** The console's id of one send: a UUID (for a push, also the notification's id). */
export const actionIdSchema = {
  type: 'string',
  format: 'uuid',
  description: 'Chosen by the console (a UUID); re-sending the same action_id sends once and answers the first outcome.',
} as const;
