/** GET /console/api/rejections?limit=…&cursor=… (docs/api.md, "Back office API"): the admin command line's `rejections`, paged. */
import { compileValidator } from '../../domain/validation';

export const rejectionsQuerySchema = {
  type: 'object',
  properties: {
    limit: { type: 'string', pattern: '^(200|1[0-9]{2}|[1-9][0-9]?)$', description: 'an integer from 1 to 200' },
    cursor: { type: 'string', minLength: 1, maxLength: 1024, description: 'the next_cursor of the previous page' },
  },
  additionalProperties: false,
} as const;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validRejectionsQuery = compileValidator(rejectionsQuerySchema, 'query string');
