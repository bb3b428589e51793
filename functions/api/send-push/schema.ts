/** POST /api/send_push (comms key; docs/api.md, "Web push", "Operations"). */
import { appIdSchema, profileIdSchema } from '../../domain/attributes';
import { deferredAnswerSchema, gatedRequestProperties, suppressedAnswerSchema } from '../../messaging/gated';
import { pushMessageProperties } from '../../messaging/push';
import type { SchemaType } from '../../domain/schema-type';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const sendPushSchema = {
  type: 'object',
  required: ['app_id', 'profile_id', 'title', 'body'],
  // A misspelt field (image, ttl_seconds) is refused rather than silently dropped.
  additionalProperties: false,
  properties: {
    app_id: appIdSchema,
    profile_id: profileIdSchema,
    ...pushMessageProperties,
    notification_id: {
      type: 'string',
      format: 'uuid',
      description: 'A UUID of the caller, to send again safely: a retry with the same id never delivers to a subscription twice.',
    },
    ...gatedRequestProperties,
  },
} as const;

export type SendPushRequest = FromRequestSchema<typeof sendPushSchema>;

const count = { type: 'integer', minimum: 0 } as const;

const sentPushSchema = {
  type: 'object',
  required: ['notification_id', 'sent', 'failed', 'removed', 'unsent', 'skipped'],
  additionalProperties: false,
  properties: {
    notification_id: { type: 'string', format: 'uuid', description: 'Carried in the payload; lifecycle events name it.' },
    sent: { ...count, description: 'Subscriptions the push service accepted the message for.' },
    failed: { ...count, description: 'Subscriptions that could not be sent to this time, and stay on the profile.' },
    removed: {
      ...count,
      description: 'Subscriptions the push service no longer knows (404, 410), removed from the profile.',
    },
    unsent: {
      ...count,
      description: 'Subscriptions not sent to because the invocation ran out of time first (slow push services); they stay on the profile.',
    },
    skipped: {
      ...count,
      description:
        'Subscriptions an earlier call with this notification_id sent to (or may have), not sent again. sent + failed + removed + unsent + skipped = tokens.',
    },
  },
} as const;

/** Sent; or, with a `purpose`, refused or deferred by the send gate (nothing sent now). */
export const sendPushResponseSchema = { anyOf: [sentPushSchema, suppressedAnswerSchema, deferredAnswerSchema] } as const;

export type SendPushResponse = SchemaType<typeof sendPushResponseSchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validSendPush = compileValidator(sendPushSchema);
