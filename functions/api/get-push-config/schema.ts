/** GET /push/config?app_id=… (browser key): what the push SDK needs to subscribe. */
import { appIdSchema } from '../../domain/attributes';
import type { SchemaType } from '../../domain/schema-type';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const pushConfigQuerySchema = {
  type: 'object',
  required: ['app_id'],
  properties: { app_id: appIdSchema },
  additionalProperties: false,
} as const;

export type PushConfigQuery = FromRequestSchema<typeof pushConfigQuerySchema>;

export const pushConfigSchema = {
  type: 'object',
  required: ['vapid_public_key'],
  additionalProperties: false,
  properties: {
    vapid_public_key: {
      type: 'string',
      pattern: '^[A-Za-z0-9_-]+$',
      description: 'The application server key (VAPID, P-256, base64url) for `pushManager.subscribe`.',
    },
  },
} as const;

export type PushConfig = SchemaType<typeof pushConfigSchema>;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validPushConfigQuery = compileValidator(pushConfigQuerySchema, 'query string');
