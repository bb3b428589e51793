/** POST /console/api/keys (docs/api.md, "Back office API", "Settings"). */
import { scopes } from '../../domain/api-keys';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const issueKeyBodySchema = {
  type: 'object',
  required: ['scope'],
  properties: { scope: { type: 'string', enum: scopes } },
  additionalProperties: false,
} as const;

export type IssueKeyBody = FromRequestSchema<typeof issueKeyBodySchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validIssueKeyBody = compileValidator(issueKeyBodySchema);
