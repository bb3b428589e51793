/** The console's session, users, roles and audit log (docs/api.md, "Back office API"): query strings, bodies, and the session's answer. */
import { AUDIT_CURSOR_PATTERN } from '../../back-office/audit';
import { roles } from '../../domain/enterprise';
import type { SchemaType } from '../../domain/schema-type';
import { compileValidator } from '../../domain/validation';

/** GET /console/api/session's answer. */
export const sessionAnswerSchema = {
  type: 'object',
  required: ['user', 'app', 'role', 'csrf_token', 'expires_at'],
  additionalProperties: false,
  properties: {
    user: {
      type: 'object',
      required: ['user_id', 'email', 'first_name', 'last_name'],
      additionalProperties: false,
      properties: { user_id: { type: 'string' }, email: { type: 'string' }, first_name: { type: 'string' }, last_name: { type: 'string' } },
    },
    app: {
      type: 'object',
      required: ['app_id', 'name'],
      additionalProperties: false,
      properties: { app_id: { type: 'string' }, name: { type: 'string' } },
    },
    role: { type: 'string', enum: roles },
    csrf_token: { type: 'string', description: 'Send it as `X-CSRF-Token` with every state-changing call of this session.' },
    expires_at: {
      type: 'string',
      format: 'date-time',
      description: 'The absolute end of the session (12 hours after sign-in); it ends sooner after 30 minutes unused.',
    },
  },
} as const;

export type SessionAnswer = SchemaType<typeof sessionAnswerSchema>;

/** GET /console/api/users?limit=…&cursor=… */
export const usersQuerySchema = {
  type: 'object',
  required: [],
  properties: {
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', description: 'an integer from 1 to 100' },
    cursor: { type: 'string', pattern: '^usr_[0-9a-f]{24}$', description: 'the next_cursor of the previous page' },
  },
  additionalProperties: false,
} as const;

/** POST /console/api/users/{user_id}/role */
export const changeRoleBodySchema = {
  type: 'object',
  required: ['role'],
  properties: { role: { type: 'string', enum: roles } },
  additionalProperties: false,
} as const;

/** GET /console/api/audit?limit=…&cursor=… */
export const auditQuerySchema = {
  type: 'object',
  required: [],
  properties: {
    limit: { type: 'string', pattern: '^(200|1[0-9]{2}|[1-9][0-9]?)$', description: 'an integer from 1 to 200' },
    cursor: { type: 'string', pattern: AUDIT_CURSOR_PATTERN, description: 'the next_cursor of the previous page' },
  },
  additionalProperties: false,
} as const;

// Checks of the query strings and bodies (functions/domain/validation.ts); precompiled in the bundle.
export const validUsersQuery = compileValidator(usersQuerySchema, 'query string');
export const validChangeRoleBody = compileValidator(changeRoleBodySchema);
export const validAuditQuery = compileValidator(auditQuerySchema, 'query string');
