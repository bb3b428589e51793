/** GET /profiles/{profile_id}?app_id=… */
import { appIdSchema, profileIdSchema } from '../../domain/attributes';
import type { SchemaType } from '../../domain/schema-type';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const profileQuerySchema = {
  type: 'object',
  required: ['app_id'],
  properties: { app_id: appIdSchema },
  additionalProperties: false,
} as const;

export type ProfileQuery = FromRequestSchema<typeof profileQuerySchema>;

export const profilePathSchema = profileIdSchema;

export const profileViewSchema = {
  type: 'object',
  required: ['app_id', 'profile_id', 'attributes', 'updated_at'],
  additionalProperties: false,
  properties: {
    app_id: appIdSchema,
    profile_id: profileIdSchema,
    attributes: {
      type: 'object',
      description: 'Custom and system attributes; an attribute cleared with urm_unset is null.',
      additionalProperties: true,
    },
    updated_at: { type: 'string', format: 'date-time', description: 'When a record last changed the profile.' },
  },
} as const;

export type ProfileView = SchemaType<typeof profileViewSchema>;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validProfileQuery = compileValidator(profileQuerySchema, 'query string');
