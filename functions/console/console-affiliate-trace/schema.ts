/** GET /console/api/affiliates/{affiliate_id}/trace?from=…&to=…&limit=…&cursor=… (docs/api.md, "Back office API"). */
import { reportRangeQuerySchema } from '../../domain/report-range';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const traceQuerySchema = {
  ...reportRangeQuerySchema,
  properties: {
    ...reportRangeQuerySchema.properties,
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', description: 'players per page, an integer from 1 to 100 (25 by default)' },
    cursor: { type: 'string', minLength: 1, maxLength: 2048, description: 'the next_cursor of the previous page' },
  },
} as const;

export type TraceQuery = FromRequestSchema<typeof traceQuerySchema>;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validTraceQuery = compileValidator(traceQuerySchema, 'query string');
