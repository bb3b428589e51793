/** POST /api/send_email (docs/api.md, "Email"). */
import { appIdSchema, profileIdSchema } from '../shared/domain/attributes';
import { displayNameSchema, emailAddressSchema, emailLimits, headerTextSchema } from '../shared/domain/email';
import type { SchemaType } from '../shared/domain/schema-type';
import { identifierText } from '../shared/domain/text';
import { compileValidator } from '../shared/domain/validation';

const bodySchema = { type: 'string', minLength: 1 } as const;

export const sendEmailSchema = {
  type: 'object',
  required: ['app_id', 'channel_id', 'profile_id', 'to_addresses', 'subject'],
  // A misspelt field (cc_addresses, replyTo) is refused rather than silently dropped.
  additionalProperties: false,
  properties: {
    app_id: appIdSchema,
    channel_id: { type: 'string', minLength: 1, maxLength: emailLimits.channelIdLength, ...identifierText },
    profile_id: profileIdSchema,
    to_addresses: {
      type: 'array',
      minItems: 1,
      maxItems: emailLimits.recipients,
      items: {
        type: 'object',
        required: ['email', 'name'],
        additionalProperties: false,
        properties: { email: emailAddressSchema, name: displayNameSchema },
      },
    },
    reply_to: emailAddressSchema,
    reply_to_name: displayNameSchema,
    from_email: emailAddressSchema,
    from_name: displayNameSchema,
    subject: { ...headerTextSchema, minLength: 1, maxLength: emailLimits.subjectLength },
    // Sizes in bytes are checked by the core; a character count would let 4-byte characters through.
    html_body: bodySchema,
    text_body: bodySchema,
  },
} as const;

export interface Recipient {
  email: string;
  name: string;
}

export interface SendEmailRequest {
  app_id: string;
  channel_id: string;
  profile_id: string;
  to_addresses: Recipient[];
  reply_to?: string;
  reply_to_name?: string;
  from_email?: string;
  from_name?: string;
  subject: string;
  html_body?: string;
  text_body?: string;
}

export const sendEmailResponseSchema = {
  type: 'object',
  required: ['message_id'],
  additionalProperties: false,
  properties: { message_id: { type: 'string', minLength: 1, description: "The mail service's id of the message." } },
} as const;

export type SendEmailResponse = SchemaType<typeof sendEmailResponseSchema>;

/** Checks the request body (functions/shared/domain/validation.ts); precompiled in the bundle. */
export const validSendEmail = compileValidator<SendEmailRequest>(sendEmailSchema);
