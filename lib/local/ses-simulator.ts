/**
 * The SES mailbox simulator on the local stack: after the local SES accepted
 * a SendEmail, the events SES would publish for each recipient, in
 * EventBridge's envelope (source `aws.ses`), as the configuration set's
 * event destination puts them on the default bus in AWS.
 *
 * - `bounce@simulator.amazonses.com`: a hard bounce (Permanent, General);
 * - `complaint@…`: delivered, then a complaint;
 * - `suppressionlist@…`: a hard bounce (Permanent, OnAccountSuppressionList);
 * - `ooto@…` (an out-of-office reply), `success@…` and any other address: delivered.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { CONFIGURATION_SET_TAG, SES_EVENT_SOURCE, sesDetailTypes, type SesEventDetail, type SesEventType } from '../../functions/domain/email-events';

export type SesEventBridgeEvent = EventBridgeEvent<string, SesEventDetail>;

/** The part of a SES v2 SendEmail request the simulator reads. */
export interface SendEmailRequestBody {
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
  EmailTags?: { Name: string; Value: string }[];
  ConfigurationSetName?: string;
  Content?: { Simple?: { Body?: { Html?: { Data?: string; Charset?: string } } } };
}

const SIMULATOR_DOMAIN = 'simulator.amazonses.com';
const ACCOUNT = '000000000000';
const OUTCOME_DELAY_MS = 500;

/** The mailbox of an address as SES reads it: `"Ann" <ann@example.com>` → `ann@example.com`. */
export function mailboxOf(address: string): string {
  const angle = /<([^<>]*)>\s*$/.exec(address);
  return (angle ? angle[1] : address).trim().toLowerCase();
}

/** What SES answers for one recipient, in order. */
function outcomesFor(mailbox: string): { type: SesEventType; subType?: string }[] {
  const [local, domain] = mailbox.split('@');
  if (domain !== SIMULATOR_DOMAIN) return [{ type: 'Delivery' }];
  if (local === 'bounce') return [{ type: 'Bounce', subType: 'General' }];
  if (local === 'suppressionlist') return [{ type: 'Bounce', subType: 'OnAccountSuppressionList' }];
  if (local === 'complaint') return [{ type: 'Delivery' }, { type: 'Complaint' }];
  return [{ type: 'Delivery' }];
}

const recipientsOf = (request: SendEmailRequestBody) => {
  const destination = request.Destination ?? {};
  return [...(destination.ToAddresses ?? []), ...(destination.CcAddresses ?? []), ...(destination.BccAddresses ?? [])];
};

/** The `mail` part of every SES event about a mail. */
function mailOf(request: SendEmailRequestBody, messageId: string, at: Date) {
  // SES gives every tag as an array of values, its own (the configuration set's name) among them.
  const tags: Record<string, string[]> = {};
  for (const tag of request.EmailTags ?? []) tags[tag.Name] = [tag.Value];
  if (request.ConfigurationSetName) tags[CONFIGURATION_SET_TAG] = [request.ConfigurationSetName];
  return {
    timestamp: at.toISOString(),
    source: request.FromEmailAddress ?? '',
    sendingAccountId: ACCOUNT,
    messageId,
    destination: recipientsOf(request),
    tags,
  };
}

function envelope(type: SesEventType, detail: SesEventDetail, timestamp: string, region: string): SesEventBridgeEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': sesDetailTypes[type],
    source: SES_EVENT_SOURCE,
    account: ACCOUNT,
    time: timestamp,
    region,
    resources: [],
    detail,
  };
}

/** What SES publishes when the open pixel of a mail it sent at `sentAt` loads, or one of its links is followed (`link`). */
export function trackingEvent(
  request: SendEmailRequestBody,
  messageId: string,
  sentAt: Date,
  region: string,
  what: { type: 'Open'; at: Date; userAgent: string } | { type: 'Click'; at: Date; userAgent: string; link: string },
): SesEventBridgeEvent {
  const timestamp = what.at.toISOString();
  // SES's shape: the reader's address and agent too, which urm never keeps.
  const seen = { timestamp, ipAddress: '127.0.0.1', userAgent: what.userAgent };
  const detail =
    what.type === 'Open'
      ? { eventType: 'Open', mail: mailOf(request, messageId, sentAt), open: seen }
      : { eventType: 'Click', mail: mailOf(request, messageId, sentAt), click: { ...seen, link: what.link, linkTags: {} } };
  return envelope(what.type, detail, timestamp, region);
}

/** The events SES publishes for a mail it accepted with `messageId`, one per recipient and outcome. */
export function simulatedEvents(request: SendEmailRequestBody, messageId: string, at: Date, region: string): SesEventBridgeEvent[] {
  const recipients = recipientsOf(request);
  const mail = mailOf(request, messageId, at);
  let step = 0;
  // Each outcome a while after the one before, as SES reports them (a complaint after its delivery), and after the
  // sender's own record of the send, which it stamps once SES has answered.
  const later = () => new Date(at.getTime() + OUTCOME_DELAY_MS * ++step).toISOString();
  return recipients.flatMap((recipient) =>
    outcomesFor(mailboxOf(recipient)).map(({ type, subType }): SesEventBridgeEvent => {
      const timestamp = later();
      const emailAddress = mailboxOf(recipient);
      // SES's full shape (more than urm reads), as the function receives it in AWS.
      const detail =
        type === 'Bounce'
          ? {
              eventType: type,
              mail,
              bounce: {
                bounceType: 'Permanent',
                bounceSubType: subType,
                bouncedRecipients: [{ emailAddress, action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
                timestamp,
                feedbackId: randomUUID(),
                reportingMTA: 'dns; local.amazonses.com',
              },
            }
          : type === 'Complaint'
            ? {
                eventType: type,
                mail,
                complaint: { complainedRecipients: [{ emailAddress }], timestamp, feedbackId: randomUUID(), complaintFeedbackType: 'abuse' },
              }
            : {
                eventType: type,
                mail,
                delivery: {
                  timestamp,
                  processingTimeMillis: OUTCOME_DELAY_MS,
                  recipients: [emailAddress],
                  smtpResponse: '250 2.6.0 Message received',
                  reportingMTA: 'local',
                },
              };
      return envelope(type, detail, timestamp, region);
    }),
  );
}
