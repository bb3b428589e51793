/** GET /console/api/affiliates?status=…&limit=…&cursor=… (docs/api.md, "Back office API"). */
import { affiliateStatuses, type AffiliateStatus } from '../../domain/affiliate-program';
import { compileValidator } from '../../domain/validation';

export const consoleAffiliatesQuerySchema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: affiliateStatuses, description: 'Only affiliates with this status.' },
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', description: 'an integer from 1 to 100' },
    cursor: { type: 'string', minLength: 1, maxLength: 2048, description: 'the next_cursor of the previous page' },
  },
  additionalProperties: false,
} as const;

export interface ConsoleAffiliatesQuery {
  status?: AffiliateStatus;
  limit?: string;
  cursor?: string;
}

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validConsoleAffiliatesQuery = compileValidator<ConsoleAffiliatesQuery>(consoleAffiliatesQuerySchema, 'query string');
