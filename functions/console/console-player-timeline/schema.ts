/** GET /console/api/players/{profile_id}/timeline?event=…&cursor=…&limit=… */
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const playerTimelineQuerySchema = {
  type: 'object',
  properties: {
    event: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[^\\u0000-\\u001F\\u007F\\uD800-\\uDFFF]*$',
      description: 'Only events of this name (system urm_* events too).',
    },
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', description: 'an integer from 1 to 100' },
    cursor: { type: 'string', minLength: 1, maxLength: 2048 },
  },
  additionalProperties: false,
} as const;

export type PlayerTimelineQuery = FromRequestSchema<typeof playerTimelineQuerySchema>;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validPlayerTimelineQuery = compileValidator(playerTimelineQuerySchema, 'query string');
