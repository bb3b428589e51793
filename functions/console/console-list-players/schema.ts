/** GET /console/api/players?prefix=…&cursor=…&limit=… */
import { profileIdSchema } from '../../domain/attributes';
import { compileValidator } from '../../domain/validation';

export const listPlayersQuerySchema = {
  type: 'object',
  properties: {
    prefix: { ...profileIdSchema, description: 'Only players whose profile_id starts with this (an exact id comes first).' },
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', description: 'an integer from 1 to 100' },
    cursor: { type: 'string', minLength: 1, maxLength: 2048 },
  },
  additionalProperties: false,
} as const;

export interface ListPlayersQuery {
  prefix?: string;
  limit?: string;
  cursor?: string;
}

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validListPlayersQuery = compileValidator<ListPlayersQuery>(listPlayersQuerySchema, 'query string');
