/** POST /console/api/affiliates/{affiliate_id}/postbacks (docs/api.md, "Back office API"): the admin command line's `affiliate postback`. */
import type { OperatorPostbackChange } from '../../back-office/postbacks';
import { postbackLimits } from '../../domain/postbacks';
import { compileValidator } from '../../domain/validation';

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

/** The URL goes with `set` and nothing else: the handler says so in words (ajv's if/then would not). */
export type UpdateAffiliatePostbacksBody = OperatorPostbackChange & { postback_url?: string };

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validUpdateAffiliatePostbacksBody = compileValidator<UpdateAffiliatePostbacksBody>(updateAffiliatePostbacksBodySchema);
