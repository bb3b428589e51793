/** POST /console/api/users/{user_id}/role (docs/api.md, "Back office API"). */
import { roles, type Role } from '../../domain/enterprise';
import { compileValidator } from '../../domain/validation';

export const changeRoleBodySchema = {
  type: 'object',
  required: ['role'],
  properties: { role: { type: 'string', enum: roles } },
  additionalProperties: false,
} as const;

export interface ChangeRoleBody {
  role: Role;
}

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validChangeRoleBody = compileValidator<ChangeRoleBody>(changeRoleBodySchema);
