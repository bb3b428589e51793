/** The query string of the console's programme view (docs/api.md, "The programme view"). */
import { monthPattern } from '../../domain/programme';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

/** GET /console/api/programme?month=YYYY-MM (and its .csv) */
export const programmeQuerySchema = {
  type: 'object',
  properties: { month: { type: 'string', pattern: monthPattern, description: 'a month YYYY-MM; the current UTC month without one' } },
  additionalProperties: false,
} as const;

export type ProgrammeQuery = FromRequestSchema<typeof programmeQuerySchema>;

export const validProgrammeQuery = compileValidator(programmeQuerySchema, 'query string');
