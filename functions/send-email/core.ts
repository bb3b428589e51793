/**
 * send_email: the rules the schema cannot say, the channel (unknown or
 * disabled: 404, nothing sent), a sender the channel may send as (400
 * otherwise), the message with every address written with
 * its name, and then an `urm_email_sent` event on the profile's timeline.
 */
import { createHash, randomUUID } from 'node:crypto';
import { channelMaySendAs, channelSenderRule, type Channel, type ChannelStore } from '../shared/domain/channels';
import { canonicalAddress, emailLimits, formatAddress, type Mailer, type OutgoingMail } from '../shared/domain/email';
import { Forbidden, NotFound, ValidationError } from '../shared/domain/errors';
import { toStreamEntries, type RecordWriter } from '../shared/domain/ingest';
import { limits } from '../shared/domain/limits';
import type { SendEmailRequest } from './schema';

export const EMAIL_SENT_EVENT = 'urm_email_sent';

export interface SendEmailDeps {
  channels: Pick<ChannelStore, 'get'>;
  mailer: Mailer;
  writer: RecordWriter;
  now: () => Date;
}

export interface SentEmail {
  messageId: string;
  recipients: number;
  /** Set when the mail went out but its timeline event could not be written. */
  eventError?: unknown;
}

export function sendEmailProblems(request: SendEmailRequest): string[] {
  const problems: string[] = [];
  if (request.html_body === undefined && request.text_body === undefined) {
    problems.push('html_body or text_body is required');
  }
  for (const field of ['html_body', 'text_body'] as const) {
    const body = request[field];
    if (body !== undefined && Buffer.byteLength(body, 'utf8') > emailLimits.bodyBytes) {
      problems.push(`${field} must be at most ${emailLimits.bodyBytes / 1024} KiB (UTF-8)`);
    }
  }
  if (request.reply_to_name !== undefined && request.reply_to === undefined) {
    problems.push('reply_to_name needs reply_to');
  }
  return problems;
}

/**
 * The message: sender fields default to the channel's, one by one; the
 * sender's domain goes out in lower case, the form the AWS grant names.
 */
export function composeMail(request: SendEmailRequest, channel: Channel): OutgoingMail {
  return {
    from: formatAddress(canonicalAddress(request.from_email ?? channel.from_email), request.from_name ?? channel.from_name),
    to: request.to_addresses.map((recipient) => formatAddress(recipient.email, recipient.name)),
    replyTo: request.reply_to === undefined ? [] : [formatAddress(request.reply_to, request.reply_to_name)],
    subject: request.subject,
    ...(request.html_body !== undefined ? { html: request.html_body } : {}),
    ...(request.text_body !== undefined ? { text: request.text_body } : {}),
    tags: { app_id: channel.app_id, channel_id: channel.channel_id },
  };
}

/** The same message id always gives the same insert id: a repeated write of the event is stored once. */
export function emailSentInsertId(messageId: string): string {
  const readable = `urm-email-${messageId}`;
  return readable.length <= limits.insertIdLength
    ? readable
    : `urm-email-${createHash('sha256').update(messageId, 'utf8').digest('hex')}`;
}

export function sendEmail(deps: SendEmailDeps) {
  return async (request: SendEmailRequest, callerAppId: string): Promise<SentEmail> => {
    if (request.app_id !== callerAppId) throw new Forbidden();
    const problems = sendEmailProblems(request);
    if (problems.length > 0) throw new ValidationError(problems);

    const channel = await deps.channels.get(request.app_id, request.channel_id);
    if (!channel || !channel.enabled) throw new NotFound('channel not found');
    // One tenant never sends as another: the sender is the channel's, whatever the key may reach.
    if (request.from_email !== undefined && !channelMaySendAs(channel, request.from_email)) {
      throw new ValidationError([channelSenderRule(channel)]);
    }

    const messageId = await deps.mailer.send(composeMail(request, channel));
    const sent: SentEmail = { messageId, recipients: request.to_addresses.length };

    // The mail is out: failing now would make the caller send it again. A lost event is logged instead.
    const sentAt = deps.now();
    const event = {
      app_id: request.app_id,
      profile_id: request.profile_id,
      event: EMAIL_SENT_EVENT,
      urm_date_time: sentAt.toISOString(),
      urm_insert_id: emailSentInsertId(messageId),
      // Never the bodies or the addresses: the timeline is not a mail archive.
      message_id: messageId,
      channel_id: channel.channel_id,
      subject: request.subject,
    };
    try {
      const receipt = await deps.writer.write(toStreamEntries('event', [event], request.app_id, { now: () => sentAt, newId: randomUUID }));
      if (receipt.FailedRecordCount > 0) {
        const refused = receipt.Records.find((entry) => 'ErrorCode' in entry);
        sent.eventError = new Error(`the stream refused the event: ${refused && 'ErrorCode' in refused ? refused.ErrorCode : 'unknown'}`);
      }
    } catch (error) {
      sent.eventError = error;
    }
    return sent;
  };
}
