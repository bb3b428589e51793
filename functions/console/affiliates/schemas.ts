/** The query strings and bodies of the console's affiliates (docs/api.md, "Back office API", "Affiliates"). */
import { affiliateDecisions } from '../../back-office/affiliates';
import type { OperatorPostbackChange } from '../../back-office/postbacks';
import { affiliateStatuses } from '../../domain/affiliate-program';
import { ValidationError } from '../../domain/errors';
import { planLimits } from '../../domain/plans';
import { postbackLimits } from '../../domain/postbacks';
import { reportDateSchema, reportRangeQuerySchema } from '../../domain/report-range';
import { identifierText } from '../../domain/text';
import { linkLimits } from '../../domain/tracking-links';
import { compileValidator, type FromRequestSchema, type Validator } from '../../domain/validation';

/** GET /console/api/affiliates?status=…&limit=…&cursor=… */
export const consoleAffiliatesQuerySchema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: affiliateStatuses, description: 'Only affiliates with this status.' },
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', description: 'an integer from 1 to 100' },
    cursor: { type: 'string', minLength: 1, maxLength: 2048, description: 'the next_cursor of the previous page' },
  },
  additionalProperties: false,
} as const;

/** POST /console/api/affiliates/{affiliate_id}/status */
export const setAffiliateStatusBodySchema = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: affiliateDecisions, description: 'approved: may sign in and earns; suspended: may not, and its links stop attributing.' },
  },
  additionalProperties: false,
} as const;

/** POST /console/api/affiliates/{affiliate_id}/plan */
export const assignPlanBodySchema = {
  type: 'object',
  required: ['plan_id'],
  properties: {
    plan_id: { type: 'string', minLength: 1, maxLength: 128, ...identifierText, description: "One of the application's plans (GET /console/api/plans)." },
    from: {
      ...reportDateSchema,
      description: 'The day the deal starts (UTC; default today): from today on, or in the past only after the last approved month.',
    },
  },
  additionalProperties: false,
} as const;

/** A decimal as text, as money is everywhere in urm: the use case checks its form and range and names the field. */
const decimalText = { type: 'string', minLength: 1, maxLength: 32 } as const;

/** POST /console/api/plans: the admin command line's `plan create`, as JSON. */
export const createPlanBodySchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: planLimits.nameMax, description: 'A name for people.' },
    cpa: {
      type: 'object',
      required: ['amount'],
      properties: {
        amount: { ...decimalText, description: 'Paid per qualified first deposit, e.g. "50".' },
        min_deposit: { ...decimalText, description: 'The smallest first deposit that qualifies (default "0").' },
      },
      additionalProperties: false,
    },
    revshare: {
      type: 'object',
      required: ['percent'],
      properties: {
        percent: { ...decimalText, description: 'Percent of NGR (bets − wins − bonuses), 0 to 100.' },
        carry_over: { type: 'boolean', description: "Carry a month's negative RevShare into the next month." },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

/** POST /console/api/affiliates/{affiliate_id}/links: the admin command line's `link create`. */
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

/** GET /console/api/affiliates/{affiliate_id}/trace?from=…&to=…&limit=…&cursor=… */
export const traceQuerySchema = {
  ...reportRangeQuerySchema,
  properties: {
    ...reportRangeQuerySchema.properties,
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', description: 'players per page, an integer from 1 to 100 (25 by default)' },
    cursor: { type: 'string', minLength: 1, maxLength: 2048, description: 'the next_cursor of the previous page' },
  },
} as const;

/** GET /console/api/affiliates/{affiliate_id}/postbacks?limit=… */
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

/** POST /console/api/affiliates/{affiliate_id}/postbacks: the admin command line's `affiliate postback`. */
export const updateAffiliatePostbacksBodySchema = {
  type: 'object',
  required: ['action'],
  properties: {
    action: {
      type: 'string',
      enum: ['set', 'off', 'rotate_secret'],
      description: 'set: a new URL template; off: stop sending; rotate_secret: a new signing secret.',
    },
    postback_url: { type: 'string', minLength: 1, maxLength: postbackLimits.urlLength, description: 'The https URL template, with set only.' },
  },
  additionalProperties: false,
} as const;

// Checks of the query strings and bodies (functions/domain/validation.ts); precompiled in the bundle.
export const validConsoleAffiliatesQuery = compileValidator(consoleAffiliatesQuerySchema, 'query string');
export const validSetAffiliateStatusBody = compileValidator(setAffiliateStatusBodySchema);
export const validAssignPlanBody = compileValidator(assignPlanBodySchema);
export const validCreatePlanBody = compileValidator(createPlanBodySchema);
/** POST /console/api/plans/{plan_id}: the new version's terms, whole, as a new plan's. */
export const validEditPlanBody = compileValidator(createPlanBodySchema);
export const validCreateAffiliateLinkBody = compileValidator(createAffiliateLinkBodySchema);
export const validTraceQuery = compileValidator(traceQuerySchema, 'query string');
export const validAffiliatePostbacksQuery = compileValidator(affiliatePostbacksQuerySchema, 'query string');
const postbacksShape = compileValidator(updateAffiliatePostbacksBodySchema);

/** The body as the schema types it, narrowed by the rule it does not say: the URL goes with `set` and nothing else. */
export type UpdateAffiliatePostbacksBody = FromRequestSchema<typeof updateAffiliatePostbacksBodySchema> & OperatorPostbackChange;

/**
 * The schema, then the URL's rule in words (ajv's if/then would not word it):
 * the answer is a change the back office takes as it is.
 */
export const validUpdateAffiliatePostbacksBody: Validator<UpdateAffiliatePostbacksBody> = Object.assign(
  (input: unknown): UpdateAffiliatePostbacksBody => {
    const { action, postback_url } = postbacksShape(input);
    if (action === 'set') {
      if (postback_url === undefined) throw new ValidationError(['postback_url is required with action "set"'], 'request body is invalid');
      return { action, postback_url };
    }
    if (postback_url !== undefined) throw new ValidationError(['postback_url goes with action "set" only'], 'request body is invalid');
    return { action };
  },
  { schema: updateAffiliatePostbacksBodySchema },
);
