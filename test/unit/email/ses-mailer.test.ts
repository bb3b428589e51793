import { beforeEach, describe, expect, test } from '@jest/globals';
import { MessageRejected, SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { SesMailer } from '../../../functions/adapters/ses-mailer';
import type { OutgoingMail } from '../../../functions/domain/email';
import { ValidationError } from '../../../functions/domain/errors';

const ses = mockClient(SESv2Client);
const client = new SESv2Client({ region: 'eu-west-1' });

const mail: OutgoingMail = {
  from: '"Casino News" <news@example.com>',
  to: ['"Ann Lee" <ann@example.com>', '=?UTF-8?B?Wm/DqyDDmHJzdGVk?= <zoe@example.com>'],
  replyTo: ['"Help desk" <help@example.com>'],
  subject: 'Your weekly bonus',
  html: '<p>Your bonus is <b>ready</b>.</p>',
  text: 'Your bonus is ready.',
  tags: { app_id: 'app_1', channel_id: 'ch_news' },
};

beforeEach(() => {
  ses.reset();
  ses.on(SendEmailCommand).resolves({ MessageId: '0100019a4b2c3d4e-5f6a7b8c-0000-0000-0000-000000000000-000000' });
});

describe('the SES mailer', () => {
  test('sends one SendEmail with every address, UTF-8 content, the tags and the configuration set, and answers its message id', async () => {
    const messageId = await new SesMailer(client, 'urm-sending').send(mail);

    expect(messageId).toBe('0100019a4b2c3d4e-5f6a7b8c-0000-0000-0000-000000000000-000000');
    expect(ses.commandCalls(SendEmailCommand).map((call) => call.args[0].input)).toEqual([
      {
        FromEmailAddress: '"Casino News" <news@example.com>',
        Destination: { ToAddresses: ['"Ann Lee" <ann@example.com>', '=?UTF-8?B?Wm/DqyDDmHJzdGVk?= <zoe@example.com>'] },
        ReplyToAddresses: ['"Help desk" <help@example.com>'],
        Content: {
          Simple: {
            Subject: { Data: 'Your weekly bonus', Charset: 'UTF-8' },
            Body: {
              Html: { Data: '<p>Your bonus is <b>ready</b>.</p>', Charset: 'UTF-8' },
              Text: { Data: 'Your bonus is ready.', Charset: 'UTF-8' },
            },
          },
        },
        EmailTags: [
          { Name: 'app_id', Value: 'app_1' },
          { Name: 'channel_id', Value: 'ch_news' },
        ],
        ConfigurationSetName: 'urm-sending',
      },
    ]);
  });

  test('sends a text-only mail without Html, no reply-to, and no configuration set when it has none', async () => {
    await new SesMailer(client).send({ ...mail, html: undefined, replyTo: [] });

    const [input] = ses.commandCalls(SendEmailCommand).map((call) => call.args[0].input);
    expect(input.Content!.Simple!.Body).toEqual({ Text: { Data: 'Your bonus is ready.', Charset: 'UTF-8' } });
    expect(input.ReplyToAddresses).toBe(undefined);
    expect(input.ConfigurationSetName).toBe(undefined);
  });

  test('makes a message SES refuses (an unverified sender) the caller’s 400, saying what to fix', async () => {
    ses.on(SendEmailCommand).rejects(new MessageRejected({ message: 'Email address is not verified.', $metadata: {} }));

    const refused = new SesMailer(client).send(mail);

    await expect(refused).rejects.toThrow(ValidationError);
    await expect(refused).rejects.toMatchObject({
      message: 'the mail service refused the message',
      errors: ['from_email must be a verified sender (and, while the SES account is in the sandbox, every recipient too)'],
    });
  });

  test('lets any other failure through', async () => {
    ses.on(SendEmailCommand).rejects(new Error('AccessDeniedException'));

    await expect(new SesMailer(client).send(mail)).rejects.toThrow('AccessDeniedException');
  });
});
