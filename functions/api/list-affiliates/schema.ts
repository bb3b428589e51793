/** GET /api/affiliates?limit=…&cursor=… (docs/api.md, "Listing affiliates"). */
import { affiliateStatuses } from '../../domain/affiliate-program';
import { appIdSchema } from '../../domain/attributes';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const affiliatesQuerySchema = {
  type: 'object',
  required: [],
  properties: {
    app_id: { ...appIdSchema, description: "Optional: the key's own application." },
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', description: 'an integer from 1 to 100' },
    cursor: { type: 'string', minLength: 1, maxLength: 2048 },
  },
  additionalProperties: false,
} as const;

export type AffiliatesQuery = FromRequestSchema<typeof affiliatesQuerySchema>;

export const affiliateListItemSchema = {
  type: 'object',
  required: ['affiliate_id', 'username', 'email', 'first_name', 'last_name', 'status', 'plan_id', 'created_at'],
  additionalProperties: false,
  properties: {
    affiliate_id: { type: 'string' },
    username: { type: 'string' },
    email: { type: 'string' },
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    status: { type: 'string', enum: affiliateStatuses, description: 'Only an approved affiliate signs in to the portal and earns.' },
    plan_id: { type: ['string', 'null'], description: 'The commission plan, null when none is assigned.' },
    created_at: { type: 'string', format: 'date-time' },
  },
} as const;

export const affiliatePageSchema = {
  type: 'object',
  required: ['affiliates', 'next_cursor'],
  additionalProperties: false,
  properties: {
    affiliates: { type: 'array', description: 'By affiliate_id.', items: affiliateListItemSchema },
    next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last page.' },
  },
} as const;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validAffiliatesQuery = compileValidator(affiliatesQuerySchema, 'query string');
