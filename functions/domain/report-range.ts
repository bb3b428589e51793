import { compileValidator, type FromRequestSchema } from './validation';
/** The query of an affiliate report's range of days (the console's report, its CSV and the trace). */

export const reportDateSchema = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'a date YYYY-MM-DD' } as const;

export const reportRangeQuerySchema = {
  type: 'object',
  required: ['from', 'to'],
  properties: { from: reportDateSchema, to: reportDateSchema },
  additionalProperties: false,
} as const;

export type ReportRangeQuery = FromRequestSchema<typeof reportRangeQuerySchema>;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validReportRangeQuery = compileValidator(reportRangeQuerySchema, 'query string');
