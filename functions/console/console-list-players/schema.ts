/** GET /console/api/players?prefix=…&cursor=…&limit=… */
import { profileIdSchema } from '../../domain/attributes';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const listPlayersQuerySchema = {
  type: 'object',
  properties: {
    prefix: { ...profileIdSchema, description: 'Only players whose profile_id starts with this (an exact id comes first).' },
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', description: 'an integer from 1 to 100' },
    cursor: { type: 'string', minLength: 1, maxLength: 2048 },
  },
  additionalProperties: false,
} as const;

export type ListPlayersQuery = FromRequestSchema<typeof listPlayersQuerySchema>;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validListPlayersQuery = compileValidator(listPlayersQuerySchema, 'query string');
