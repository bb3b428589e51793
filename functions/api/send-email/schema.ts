/** POST /api/send_email (docs/api.md, "Email"). */
import { appIdSchema, profileIdSchema } from '../../domain/attributes';
import { displayNameSchema, emailAddressSchema, emailLimits } from '../../domain/email';
import type { SchemaType } from '../../domain/schema-type';
import { emailMessageProperties } from '../../messaging/email';
import { deferredAnswerSchema, gatedRequestProperties, suppressedAnswerSchema } from '../../messaging/gated';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

const { channel_id, ...otherMessageProperties } = emailMessageProperties;

export const sendEmailSchema = {
  type: 'object',
  required: ['app_id', 'channel_id', 'profile_id', 'to_addresses', 'subject'],
  // A misspelt field (cc_addresses, replyTo) is refused rather than silently dropped.
  additionalProperties: false,
  properties: {
    app_id: appIdSchema,
    // Where it always was: error messages come in property order.
    channel_id,
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
    ...otherMessageProperties,
    ...gatedRequestProperties,
  },
} as const;

/** The message fields are send_email's and the back office's alike (functions/messaging/email.ts). */
export type SendEmailRequest = FromRequestSchema<typeof sendEmailSchema>;

const sentEmailSchema = {
  type: 'object',
  required: ['message_id'],
  additionalProperties: false,
  properties: { message_id: { type: 'string', minLength: 1, description: "The mail service's id of the message." } },
} as const;

/** Sent; or, with a `purpose`, refused or deferred by the send gate (nothing sent now). */
export const sendEmailResponseSchema = { anyOf: [sentEmailSchema, suppressedAnswerSchema, deferredAnswerSchema] } as const;

export type SendEmailResponse = SchemaType<typeof sendEmailResponseSchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validSendEmail = compileValidator(sendEmailSchema);
