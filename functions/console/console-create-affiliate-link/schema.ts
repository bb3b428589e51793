/** POST /console/api/affiliates/{affiliate_id}/links (docs/api.md, "Back office API"): the admin command line's `link create`. */
import { linkLimits } from '../../domain/tracking-links';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const createAffiliateLinkBodySchema = {
  type: 'object',
  required: ['name', 'landing_url'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: linkLimits.nameMaxLength, description: 'A name the affiliate and the operator know the link by.' },
    landing_url: {
      type: 'string',
      minLength: 1,
      maxLength: linkLimits.landingUrlMaxLength,
      description: "Where a click lands: on one of the application's site origins.",
    },
  },
  additionalProperties: false,
} as const;

export type CreateAffiliateLinkBody = FromRequestSchema<typeof createAffiliateLinkBodySchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validCreateAffiliateLinkBody = compileValidator(createAffiliateLinkBodySchema);
