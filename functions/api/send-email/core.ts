/**
 * send_email: one message through a channel of the caller's application
 * (functions/messaging/email.ts, shared with the back office), and then
 * an `urm_email_sent` event on the profile's timeline.
 */
import { randomUUID } from 'node:crypto';
import type { Mailer } from '../../domain/email';
import type { ChannelStore, SenderStore } from '../../domain/channels';
import { Forbidden } from '../../domain/errors';
import { toStreamEntries, type RecordWriter } from '../../domain/ingest';
import { composeMail, emailChannel, emailSentEvent } from '../../messaging/email';
import type { SendEmailRequest } from './schema';

export interface SendEmailDeps {
  channels: Pick<ChannelStore, 'get'>;
  senders: Pick<SenderStore, 'holders'>;
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

export function sendEmail(deps: SendEmailDeps) {
  const channelFor = emailChannel(deps);
  return async (request: SendEmailRequest, callerAppId: string): Promise<SentEmail> => {
    if (request.app_id !== callerAppId) throw new Forbidden();
    const channel = await channelFor(request.app_id, request);

    const messageId = await deps.mailer.send(composeMail(request, channel, request.profile_id));
    const sent: SentEmail = { messageId, recipients: request.to_addresses.length };

    // The mail is out: failing now would make the caller send it again. A lost event is logged instead.
    const sentAt = deps.now();
    const event = emailSentEvent({ appId: request.app_id, profileId: request.profile_id, channel, subject: request.subject, messageId, at: sentAt });
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
