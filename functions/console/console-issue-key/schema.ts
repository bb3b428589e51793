/** POST /console/api/keys (docs/api.md, "Back office API", "Settings"). */
import { scopes, type Scope } from '../../domain/api-keys';
import { compileValidator } from '../../domain/validation';

export const issueKeyBodySchema = {
  type: 'object',
  required: ['scope'],
  properties: { scope: { type: 'string', enum: scopes } },
  additionalProperties: false,
} as const;

export interface IssueKeyBody {
  scope: Scope;
}

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validIssueKeyBody = compileValidator<IssueKeyBody>(issueKeyBodySchema);
