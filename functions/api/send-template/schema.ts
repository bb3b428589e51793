/** POST /api/send_template (docs/api.md, "Templates", "send_template"). */
import { appIdSchema, profileIdSchema, valueSchema } from '../../domain/attributes';
import type { SchemaType } from '../../domain/schema-type';
import { purposes } from '../../domain/send-gate';
import { templateIdPattern } from '../../domain/templates';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';
import { deferredAnswerSchema, gatedRequestProperties, suppressedAnswerSchema } from '../../messaging/gated';

export const sendTemplateLimits = {
  dataProperties: 100,
  dataNameLength: 255,
  idempotencyKeyLength: 128,
} as const;

export const sendTemplateSchema = {
  type: 'object',
  required: ['app_id', 'profile_id', 'template_id', 'purpose'],
  additionalProperties: false,
  properties: {
    app_id: appIdSchema,
    profile_id: profileIdSchema,
    template_id: { type: 'string', pattern: templateIdPattern, description: "One of the application's templates (email, web push or webhook)." },
    purpose: {
      enum: purposes,
      description:
        'Required: a template is sent only through the send gate, and only the caller knows whether the message is about the account (`transactional`: suppression and an address only) or marketing (`marketing`: every rule).',
    },
    topic: gatedRequestProperties.topic,
    data: {
      type: 'object',
      maxProperties: sendTemplateLimits.dataProperties,
      propertyNames: { minLength: 1, maxLength: sendTemplateLimits.dataNameLength },
      additionalProperties: valueSchema,
      description: "What the template reads as `event` (`{{ event.amount }}`): an event's properties, as ingestion takes them.",
    },
    idempotency_key: {
      type: 'string',
      minLength: 1,
      maxLength: sendTemplateLimits.idempotencyKeyLength,
      description: 'The same key is the same message, whenever it is sent again. Absent: the same request on the same UTC day is.',
    },
  },
} as const;

export type SendTemplateRequest = FromRequestSchema<typeof sendTemplateSchema>;

const sentSchema = {
  type: 'object',
  required: ['message_id'],
  additionalProperties: false,
  properties: {
    message_id: {
      type: 'string',
      minLength: 1,
      description:
        "The id on the sent event of the timeline: the mail service's for an email, urm's for a push (its notification id) or a webhook (X-Urm-Message-Id).",
    },
  },
} as const;

/** Sent; or refused or deferred by the send gate (nothing sent now). */
export const sendTemplateResponseSchema = { anyOf: [sentSchema, suppressedAnswerSchema, deferredAnswerSchema] } as const;

export type SendTemplateResponse = SchemaType<typeof sendTemplateResponseSchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validSendTemplate = compileValidator(sendTemplateSchema);
