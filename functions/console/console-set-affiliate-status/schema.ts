/** POST /console/api/affiliates/{affiliate_id}/status (docs/api.md, "Back office API"). */
import { affiliateDecisions } from '../../back-office/affiliates';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const setAffiliateStatusBodySchema = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: affiliateDecisions, description: 'approved: may sign in and earns; suspended: may not, and its links stop attributing.' },
  },
  additionalProperties: false,
} as const;

export type SetAffiliateStatusBody = FromRequestSchema<typeof setAffiliateStatusBodySchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validSetAffiliateStatusBody = compileValidator(setAffiliateStatusBodySchema);
