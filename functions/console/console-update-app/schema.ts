/** POST /console/api/app (docs/api.md, "Back office API", "Settings"): what is given changes; the rest stays. */
import { affiliateApprovals } from '../../back-office/apps';
import { identifierText } from '../../domain/text';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

const origin = {
  type: 'string',
  minLength: 1,
  maxLength: 2048,
  description: 'An origin: scheme, host and optional port, e.g. https://portal.example.com.',
} as const;

export const updateAppBodySchema = {
  type: 'object',
  minProperties: 1,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200, ...identifierText },
    portal_origin: origin,
    site_origins: { type: 'array', maxItems: 50, items: origin, description: 'Replaces the origins allowed to use the browser key.' },
    affiliate_approval: { type: 'string', enum: affiliateApprovals },
    default_plan_id: { type: 'string', minLength: 1, maxLength: 64, ...identifierText },
    identity_verification: { type: 'string', enum: ['on', 'off'] },
  },
  additionalProperties: false,
} as const;

export type UpdateAppBody = FromRequestSchema<typeof updateAppBodySchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validUpdateAppBody = compileValidator(updateAppBodySchema);
