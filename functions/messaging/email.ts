/**
 * Sending one email through a channel of an application, and the
 * `urm_email_sent` event that records it: what `POST /api/send_email` (an
 * integrator's call) and the back office's "email a player" both do. The
 * rules the schema cannot say, the channel (unknown or disabled: 404, nothing
 * sent), a sender the channel may send as (400 otherwise) and the
 * application still holds (409 otherwise), the message with every address
 * written with its name.
 */
import { createHash } from 'node:crypto';
import { channelMaySendAs, channelSenderRule, senderHeldBy, type Channel, type ChannelStore, type SenderStore } from '../domain/channels';
import {
  canonicalAddress,
  displayNameSchema,
  emailAddressSchema,
  emailLimits,
  formatAddress,
  headerTextSchema,
  type Mailer,
  type OutgoingMail,
} from '../domain/email';
import { mailTagNames, profileTags } from '../domain/email-events';
import type { AttributeValue } from '../domain/attributes';
import { Conflict, NotFound, ValidationError } from '../domain/errors';
import { limits } from '../domain/limits';
import { identifierText } from '../domain/text';
import { compileValidator, type Validator } from '../domain/validation';

export const EMAIL_SENT_EVENT = 'urm_email_sent';

export interface Recipient {
  email: string;
  name: string;
}

/** One message, as send_email's body carries it (without the application and profile ids). */
export interface EmailMessage {
  channel_id: string;
  to_addresses: Recipient[];
  reply_to?: string;
  reply_to_name?: string;
  from_email?: string;
  from_name?: string;
  subject: string;
  html_body?: string;
  text_body?: string;
}

const bodySchema = { type: 'string', minLength: 1 } as const;

/** The JSON Schema properties of a message's fields: send_email's and the back office's bodies both carry them. */
export const emailMessageProperties = {
  channel_id: { type: 'string', minLength: 1, maxLength: emailLimits.channelIdLength, ...identifierText },
  reply_to: emailAddressSchema,
  reply_to_name: displayNameSchema,
  from_email: emailAddressSchema,
  from_name: displayNameSchema,
  subject: { ...headerTextSchema, minLength: 1, maxLength: emailLimits.subjectLength },
  // Sizes in bytes are checked by the core; a character count would let 4-byte characters through.
  html_body: bodySchema,
  text_body: bodySchema,
} as const;

export interface EmailPorts {
  channels: Pick<ChannelStore, 'get'>;
  /** Who holds each sender: read at every send, so a released or reassigned sender stops at once. */
  senders: Pick<SenderStore, 'holders'>;
  mailer: Mailer;
}

export function sendEmailProblems(message: Omit<EmailMessage, 'channel_id' | 'to_addresses'>): string[] {
  const problems: string[] = [];
  if (message.html_body === undefined && message.text_body === undefined) {
    problems.push('html_body or text_body is required');
  }
  for (const field of ['html_body', 'text_body'] as const) {
    const body = message[field];
    if (body !== undefined && Buffer.byteLength(body, 'utf8') > emailLimits.bodyBytes) {
      problems.push(`${field} must be at most ${emailLimits.bodyBytes / 1024} KiB (UTF-8)`);
    }
  }
  if (message.reply_to_name !== undefined && message.reply_to === undefined) {
    problems.push('reply_to_name needs reply_to');
  }
  return problems;
}

/**
 * The message to a player: sender fields default to the channel's, one by
 * one; the sender's domain goes out in lower case, the form the AWS grant
 * names. Its tags name the application, the channel and the profile, so SES's
 * bounces, complaints and deliveries find the player (domain/email-events.ts);
 * a campaign's send adds tags naming the campaign, so its results count them.
 */
export function composeMail(message: EmailMessage, channel: Channel, profileId: string, extraTags: Record<string, string> = {}): OutgoingMail {
  return {
    from: formatAddress(canonicalAddress(message.from_email ?? channel.from_email), message.from_name ?? channel.from_name),
    to: message.to_addresses.map((recipient) => formatAddress(recipient.email, recipient.name)),
    replyTo: message.reply_to === undefined ? [] : [formatAddress(message.reply_to, message.reply_to_name)],
    subject: message.subject,
    ...(message.html_body !== undefined ? { html: message.html_body } : {}),
    ...(message.text_body !== undefined ? { text: message.text_body } : {}),
    tags: { ...extraTags, [mailTagNames.app]: channel.app_id, [mailTagNames.channel]: channel.channel_id, ...profileTags(profileId) },
  };
}

/** The same message id always gives the same insert id: a repeated write of the event is stored once. */
export function emailSentInsertId(messageId: string): string {
  const readable = `urm-email-${messageId}`;
  return readable.length <= limits.insertIdLength ? readable : `urm-email-${createHash('sha256').update(messageId, 'utf8').digest('hex')}`;
}

/**
 * The channel a message would go out through, once its rules hold: the
 * message's problems (400), the channel (unknown or disabled: 404), the
 * sender (400 unless the channel's; 409 unless assigned to the application
 * now). Nothing is sent.
 */
export function emailChannel(ports: Pick<EmailPorts, 'channels' | 'senders'>) {
  return async (appId: string, message: Omit<EmailMessage, 'to_addresses'>): Promise<Channel> => {
    const problems = sendEmailProblems(message);
    if (problems.length > 0) throw new ValidationError(problems);
    const channel = await ports.channels.get(appId, message.channel_id);
    if (!channel?.enabled) throw new NotFound('channel not found');
    // One tenant never sends as another: the sender is the channel's, whatever the caller may reach.
    if (message.from_email !== undefined && !channelMaySendAs(channel, message.from_email)) {
      throw new ValidationError([channelSenderRule(channel)]);
    }
    // And the channel's sender is still the application's: IAM cannot tell tenants apart (docs/api.md, "Senders").
    const from = canonicalAddress(message.from_email ?? channel.from_email);
    if (!senderHeldBy(await ports.senders.holders(from), appId)) {
      throw new Conflict(`the sender ${from} is not assigned to the application: the operator assigns senders (or send through another channel)`);
    }
    return channel;
  };
}

/** The `urm_email_sent` event of a sent message; `extra` adds attributes (who sent it from the back office). */
export function emailSentEvent(
  sent: { appId: string; profileId: string; channel: Channel; subject: string; messageId: string; at: Date },
  extra: Record<string, string> = {},
) {
  return {
    app_id: sent.appId,
    profile_id: sent.profileId,
    event: EMAIL_SENT_EVENT,
    urm_date_time: sent.at.toISOString(),
    urm_insert_id: emailSentInsertId(sent.messageId),
    // Never the bodies or the addresses: the timeline is not a mail archive.
    message_id: sent.messageId,
    channel_id: sent.channel.channel_id,
    subject: sent.subject,
    ...extra,
  };
}

/** The attribute a player's email address is read from unless the application's settings name another (docs/api.md, "Messaging a player"). */
export const PLAYER_EMAIL_ATTRIBUTE = 'email';

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
export function playerRecipient(attributes: Record<string, AttributeValue | null>, attribute = PLAYER_EMAIL_ATTRIBUTE): Recipient {
  const address = attributes[attribute];
  if (address === undefined || address === null) throw new Conflict(`the player has no email address (attribute ${attribute})`);
  if (typeof address !== 'string' || !validAddress(address)) {
    throw new Conflict(`the player's ${attribute} attribute is not an email address`);
  }
  const text = (name: string) => (typeof attributes[name] === 'string' ? (attributes[name] as string).trim() : '');
  const name = text('name') || [text('first_name'), text('last_name')].filter(Boolean).join(' ');
  return { email: address, name: validName(name) ? name : '' };
}
