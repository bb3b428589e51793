/** POST /console/api/users/{user_id}/role (docs/api.md, "Back office API"). */
import { roles } from '../../domain/enterprise';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const changeRoleBodySchema = {
  type: 'object',
  required: ['role'],
  properties: { role: { type: 'string', enum: roles } },
  additionalProperties: false,
} as const;

export type ChangeRoleBody = FromRequestSchema<typeof changeRoleBodySchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validChangeRoleBody = compileValidator(changeRoleBodySchema);
