/** GET /console/api/affiliates?status=…&limit=…&cursor=… (docs/api.md, "Back office API"). */
import { affiliateStatuses } from '../../domain/affiliate-program';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const consoleAffiliatesQuerySchema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: affiliateStatuses, description: 'Only affiliates with this status.' },
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', description: 'an integer from 1 to 100' },
    cursor: { type: 'string', minLength: 1, maxLength: 2048, description: 'the next_cursor of the previous page' },
  },
  additionalProperties: false,
} as const;

export type ConsoleAffiliatesQuery = FromRequestSchema<typeof consoleAffiliatesQuerySchema>;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validConsoleAffiliatesQuery = compileValidator(consoleAffiliatesQuerySchema, 'query string');
