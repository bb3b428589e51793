/** GET /console/api/users?limit=…&cursor=… (docs/api.md, "Back office API"). */
import { roles } from '../../domain/enterprise';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const usersQuerySchema = {
  type: 'object',
  required: [],
  properties: {
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', description: 'an integer from 1 to 100' },
    cursor: { type: 'string', pattern: '^usr_[0-9a-f]{24}$', description: 'the next_cursor of the previous page' },
  },
  additionalProperties: false,
} as const;

export type UsersQuery = FromRequestSchema<typeof usersQuerySchema>;

export const consoleUserSchema = {
  type: 'object',
  required: ['user_id', 'email', 'first_name', 'last_name', 'role', 'created_at'],
  additionalProperties: false,
  properties: {
    user_id: { type: 'string' },
    email: { type: 'string' },
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    role: { type: 'string', enum: roles },
    created_at: { type: 'string', format: 'date-time' },
  },
} as const;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validUsersQuery = compileValidator(usersQuerySchema, 'query string');
