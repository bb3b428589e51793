/** POST /console/api/affiliates/{affiliate_id}/plan (docs/api.md, "Back office API"). */
import { identifierText } from '../../domain/text';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const assignPlanBodySchema = {
  type: 'object',
  required: ['plan_id'],
  properties: {
    plan_id: { type: 'string', minLength: 1, maxLength: 128, ...identifierText, description: "One of the application's plans (GET /console/api/plans)." },
  },
  additionalProperties: false,
} as const;

export type AssignPlanBody = FromRequestSchema<typeof assignPlanBodySchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validAssignPlanBody = compileValidator(assignPlanBodySchema);
