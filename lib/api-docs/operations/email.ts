/** Transactional email through an application's channels. */
import { sendEmailResponseSchema } from '../../../functions/api/send-email/schema';
import { emailLimits } from '../../../functions/domain/email';
import { messageBodySchema } from '../../../functions/http/error-bodies';
import { describeBytes } from '../../../functions/http/json-body';
import { placeholders as p } from '../placeholders';
import { notFound, refusal, v } from './common';
import type { OperationDoc } from './doc-types';

const invalidEmail = { app_id: p.appId, channel_id: p.channelId, profile_id: p.profileId, to_addresses: [], subject: '' };

export const emailDocs: Record<string, OperationDoc> = {
  SendEmail: {
    tag: 'Email',
    summary: 'Send a transactional email',
    description:
      "Sends one message through one of the application's channels and records an `urm_email_sent` event on the profile. " +
      `At least one of \`html_body\` and \`text_body\`, each at most ${describeBytes(emailLimits.bodyBytes)} as UTF-8; ` +
      '`reply_to_name` only with `reply_to`. ' +
      "`from_email`, when given, must be the channel's own address or, for a channel that names its domain, an address at " +
      'that domain (compared case-insensitively); any other sender is a 400 naming `from_email`: one application never ' +
      'sends as another. The sender must also be assigned to the application by the operator at the time of sending ' +
      '(the address, or its whole domain): a 409 otherwise. `reply_to` may be any address.',
    scopes: ['comms'],
    body: { validate: v.sendEmail, description: 'The message.' },
    responses: {
      200: { description: 'Sent.', schema: sendEmailResponseSchema },
      404: { description: 'No enabled channel of that id.', schema: messageBodySchema },
      409: {
        description: 'The sender is not assigned to the application (any more): nothing is sent. The operator assigns senders.',
        schema: messageBodySchema,
        illustrations: {
          '409 sender not assigned': {
            summary: 'A channel whose sender the operator released',
            value: {
              message: 'the sender news@casino.example is not assigned to the application: the operator assigns senders (or send through another channel)',
            },
          },
        },
      },
    },
    examples: {
      '200 sent': {
        summary: 'An HTML and text message to one recipient',
        body: {
          app_id: p.appId,
          channel_id: p.channelId,
          profile_id: p.profileId,
          to_addresses: [{ email: 'ada.lovelace@example.com', name: 'Ada Lovelace' }],
          subject: 'Your deposit is confirmed',
          html_body: '<p>Thanks, Ada: your deposit of €25.50 is on your account.</p>',
          text_body: 'Thanks, Ada: your deposit of €25.50 is on your account.',
        },
        answer: { message_id: '010001907a9c1f2e-6b1d3c4e-5f60-4a7b-8c9d-0e1f2a3b4c5d-000000' },
      },
      '404 unknown channel': {
        summary: 'A channel the application does not have',
        body: {
          app_id: p.appId,
          channel_id: 'newsletter-2019',
          profile_id: p.profileId,
          to_addresses: [{ email: 'ada.lovelace@example.com', name: 'Ada Lovelace' }],
          subject: 'Your deposit is confirmed',
          text_body: 'Thanks, Ada: your deposit of €25.50 is on your account.',
        },
        answer: notFound('channel not found'),
      },
      '400 no recipient and no subject': {
        summary: 'An empty recipient list and subject',
        body: invalidEmail,
        answer: refusal(v.sendEmail, invalidEmail),
      },
    },
  },
};
