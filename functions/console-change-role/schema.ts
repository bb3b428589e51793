/** POST /console/api/users/{user_id}/role (docs/api.md, "Back office API"). */
import { roles, type Role } from '../shared/domain/enterprise';

export const changeRoleBodySchema = {
  type: 'object',
  required: ['role'],
  properties: { role: { type: 'string', enum: roles } },
  additionalProperties: false,
} as const;

export interface ChangeRoleBody {
  role: Role;
}
