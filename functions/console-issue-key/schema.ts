/** POST /console/api/keys (docs/api.md, "Back office API", "Settings"). */
import { scopes, type Scope } from '../shared/domain/api-keys';

export const issueKeyBodySchema = {
  type: 'object',
  required: ['scope'],
  properties: { scope: { type: 'string', enum: scopes } },
  additionalProperties: false,
} as const;

export interface IssueKeyBody {
  scope: Scope;
}
