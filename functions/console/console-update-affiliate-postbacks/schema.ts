/** POST /console/api/affiliates/{affiliate_id}/postbacks (docs/api.md, "Back office API"): the admin command line's `affiliate postback`. */
import type { OperatorPostbackChange } from '../../back-office/postbacks';
import { postbackLimits } from '../../domain/postbacks';
import { ValidationError } from '../../domain/errors';
import { compileValidator, type FromRequestSchema, type Validator } from '../../domain/validation';

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

const shape = compileValidator(updateAffiliatePostbacksBodySchema);

/** The body as the schema types it, narrowed by the rule it does not say: the URL goes with `set` and nothing else. */
export type UpdateAffiliatePostbacksBody = FromRequestSchema<typeof updateAffiliatePostbacksBodySchema> & OperatorPostbackChange;

/**
 * The schema, then the URL's rule in words (ajv's if/then would not word it):
 * the answer is a change the back office takes as it is.
 */
export const validUpdateAffiliatePostbacksBody: Validator<UpdateAffiliatePostbacksBody> = Object.assign(
  (input: unknown): UpdateAffiliatePostbacksBody => {
    const { action, postback_url } = shape(input);
    if (action === 'set') {
      if (postback_url === undefined) throw new ValidationError(['postback_url is required with action "set"'], 'request body is invalid');
      return { action, postback_url };
    }
    if (postback_url !== undefined) throw new ValidationError(['postback_url goes with action "set" only'], 'request body is invalid');
    return { action };
  },
  { schema: updateAffiliatePostbacksBodySchema },
);
