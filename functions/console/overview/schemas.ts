/** GET /console/api/overview?days=… (docs/api.md, "Back office API", "The application's figures"). */
import { compileValidator } from '../../domain/validation';

export const overviewQuerySchema = {
  type: 'object',
  properties: {
    days: { type: 'string', pattern: '^(36[0-6]|3[0-5][0-9]|[12][0-9]{2}|[1-9][0-9]?)$', description: 'an integer from 1 to 366 (default 30)' },
  },
  additionalProperties: false,
} as const;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validOverviewQuery = compileValidator(overviewQuerySchema, 'query string');
