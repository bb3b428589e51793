/**
 * send_email: one message through a channel of the caller's application
 * (functions/messaging/email.ts, shared with the back office), and then
 * an `urm_email_sent` event on the profile's timeline.
 */
import { randomUUID } from 'node:crypto';
import type { Mailer } from '../../domain/email';
import type { ChannelStore, SenderStore } from '../../domain/channels';
import { Conflict, Forbidden } from '../../domain/errors';
import { toStreamEntries, type RecordWriter } from '../../domain/ingest';
import { composeMail, emailChannel, emailSentEvent } from '../../messaging/email';
import { gatedSend, messageIdOf, type GatedPorts, type HeldAnswer } from '../../messaging/gated';
import type { SendEmailRequest } from './schema';

export interface SendEmailDeps {
  channels: Pick<ChannelStore, 'get'>;
  senders: Pick<SenderStore, 'holders'>;
  mailer: Mailer;
  writer: RecordWriter;
  now: () => Date;
  /** The send gate's ports: a request with a `purpose` goes through it (docs/api.md, "The send gate"). */
  gate?: Omit<GatedPorts, 'email' | 'push' | 'writer' | 'newId'>;
}

export interface SentEmail {
  messageId: string;
  recipients: number;
  /** With a `purpose`: what the gate said instead of sending. */
  held?: HeldAnswer;
  /** Set when the mail went out but its timeline event could not be written. */
  eventError?: unknown;
}

export function sendEmail(deps: SendEmailDeps) {
  const channelFor = emailChannel(deps);
  const gated = deps.gate ? gatedSend({ ...deps.gate, email: deps, writer: deps.writer, newId: randomUUID }) : undefined;
  return async (request: SendEmailRequest, callerAppId: string): Promise<SentEmail> => {
    if (request.app_id !== callerAppId) throw new Forbidden();
    if (request.purpose !== undefined) {
      if (!gated) throw new Error('send_email is not wired with the send gate');
      const { app_id: appId, profile_id: profileId, purpose, topic, ...message } = request;
      // The same request on the same UTC day is the same message: a retry never sends twice.
      const messageId = messageIdOf('send_email', request, deps.now().toISOString().slice(0, 10));
      const outcome = await gated({
        appId,
        profileId,
        purpose,
        ...(topic !== undefined ? { topic } : {}),
        messageId,
        message: { channel: 'email', email: message },
      });
      if (outcome.status === 'duplicate') throw new Conflict('this message was already sent (the same request today)');
      if (outcome.status === 'suppressed') return { messageId: '', recipients: 0, held: { suppressed: outcome.reason, detail: outcome.detail } };
      if (outcome.status === 'deferred') return { messageId: '', recipients: 0, held: { deferred_until: outcome.deferred_until, detail: outcome.detail } };
      return {
        messageId: outcome.email?.message_id ?? '',
        recipients: message.to_addresses.length,
        ...(outcome.recorded ? {} : { eventError: new Error('not recorded') }),
      };
    }
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
