/** GET /console/api/affiliates/{affiliate_id}/postbacks?limit=… (docs/api.md, "Back office API"). */
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const affiliatePostbacksQuerySchema = {
  type: 'object',
  properties: {
    limit: {
      type: 'string',
      pattern: '^(500|[1-4][0-9]{2}|[1-9][0-9]?)$',
      description: 'at most this many delivery attempts, newest first: 1 to 500 (default 50)',
    },
  },
  additionalProperties: false,
} as const;

export type AffiliatePostbacksQuery = FromRequestSchema<typeof affiliatePostbacksQuerySchema>;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validAffiliatePostbacksQuery = compileValidator(affiliatePostbacksQuerySchema, 'query string');
