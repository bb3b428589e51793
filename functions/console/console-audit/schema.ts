/** GET /console/api/audit?limit=…&cursor=… (docs/api.md, "Back office API"). */
import { AUDIT_CURSOR_PATTERN } from '../../back-office/audit';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const auditQuerySchema = {
  type: 'object',
  required: [],
  properties: {
    limit: { type: 'string', pattern: '^(200|1[0-9]{2}|[1-9][0-9]?)$', description: 'an integer from 1 to 200' },
    cursor: { type: 'string', pattern: AUDIT_CURSOR_PATTERN, description: 'the next_cursor of the previous page' },
  },
  additionalProperties: false,
} as const;

export type AuditQuery = FromRequestSchema<typeof auditQuerySchema>;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validAuditQuery = compileValidator(auditQuerySchema, 'query string');
