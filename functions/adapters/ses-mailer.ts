/**
 * Mailer on SES v2: one SendEmail with simple content, UTF-8 throughout, and
 * the configuration set when the stack has one. A message SES refuses (an
 * unverified sender, or a recipient while the account is in the sandbox)
 * is the caller's to fix: a 400, not a 500.
 */
import { SendEmailCommand, type SendEmailCommandInput, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { Mailer, OutgoingMail } from '../domain/email';
import { ValidationError } from '../domain/errors';

const CHARSET = 'UTF-8';

export function sendEmailInput(mail: OutgoingMail, configurationSet?: string): SendEmailCommandInput {
  return {
    FromEmailAddress: mail.from,
    Destination: { ToAddresses: mail.to },
    ...(mail.replyTo.length > 0 ? { ReplyToAddresses: mail.replyTo } : {}),
    Content: {
      Simple: {
        Subject: { Data: mail.subject, Charset: CHARSET },
        Body: {
          ...(mail.html !== undefined ? { Html: { Data: mail.html, Charset: CHARSET } } : {}),
          ...(mail.text !== undefined ? { Text: { Data: mail.text, Charset: CHARSET } } : {}),
        },
        ...(mail.headers && mail.headers.length > 0 ? { Headers: mail.headers.map((header) => ({ Name: header.name, Value: header.value })) } : {}),
      },
    },
    EmailTags: Object.entries(mail.tags).map(([Name, Value]) => ({ Name, Value })),
    ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
  };
}

// By name, as the SDK sets it: class names do not survive minification.
const refusals = ['MessageRejected', 'MailFromDomainNotVerifiedException'];

export class SesMailer implements Mailer {
  constructor(
    private readonly client: SESv2Client,
    private readonly configurationSet?: string,
  ) {}

  async send(mail: OutgoingMail): Promise<string> {
    let messageId: string | undefined;
    try {
      messageId = (await this.client.send(new SendEmailCommand(sendEmailInput(mail, this.configurationSet)))).MessageId;
    } catch (error) {
      if (refusals.includes((error as Error).name)) {
        throw new ValidationError(
          ['from_email must be a verified sender (and, while the SES account is in the sandbox, every recipient too)'],
          'the mail service refused the message',
        );
      }
      throw error;
    }
    if (!messageId) throw new Error('SES answered SendEmail without a MessageId');
    return messageId;
  }
}
