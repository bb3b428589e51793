/**
 * POST /api/set_affiliate (docs/api.md, "set_affiliate"):
 * the profile and at least one of the three tracking parameters, none empty.
 */
import { affiliateAttributes, appIdSchema, profileIdSchema } from '../../domain/attributes';
import { ValidationError } from '../../domain/errors';
import type { SchemaType } from '../../domain/schema-type';
import { identifierText } from '../../domain/text';
import { compileValidator, type FromRequestSchema, type Validator } from '../../domain/validation';

export const trackingParameters = affiliateAttributes;
export type TrackingParameter = (typeof trackingParameters)[number];

/** A tracking value as the player's registration query string carried it: kept as given. */
export const TRACKING_VALUE_MAX_LENGTH = 255;
const trackingValue = { type: 'string', minLength: 1, maxLength: TRACKING_VALUE_MAX_LENGTH, ...identifierText } as const;

export const setAffiliateSchema = {
  type: 'object',
  required: ['app_id', 'profile_id'],
  additionalProperties: false,
  properties: {
    app_id: appIdSchema,
    profile_id: profileIdSchema,
    urm_aff_id: trackingValue,
    urm_aff_link_id: trackingValue,
    urm_aff: trackingValue,
  },
} as const;

export type SetAffiliateInput = FromRequestSchema<typeof setAffiliateSchema>;

export const noTrackingParameter = `one of ${trackingParameters.join(', ')} is required`;

const shape = compileValidator(setAffiliateSchema);

/**
 * The schema, plus the rule it cannot word well (an `anyOf` of three
 * `required` would answer three messages): at least one tracking parameter.
 * Problems of both kinds come in one answer.
 */
export const validSetAffiliate: Validator<SetAffiliateInput> = Object.assign(
  (input: unknown): SetAffiliateInput => {
    const isObject = typeof input === 'object' && input !== null && !Array.isArray(input);
    const missing = isObject && trackingParameters.every((name) => !Object.hasOwn(input, name)) ? [noTrackingParameter] : [];
    let valid: SetAffiliateInput;
    try {
      valid = shape(input);
    } catch (error) {
      if (error instanceof ValidationError && missing.length > 0) throw new ValidationError([...error.errors, ...missing], error.message);
      throw error;
    }
    if (missing.length > 0) throw new ValidationError(missing);
    return valid;
  },
  { schema: setAffiliateSchema },
);

export const affiliateSetSchema = {
  type: 'object',
  required: ['message', 'message_id'],
  additionalProperties: false,
  properties: {
    message: { const: 'Affiliate set' },
    message_id: { type: 'string', format: 'uuid', description: 'The urm_insert_id of the profile record that carries the attribution.' },
  },
} as const;

export type AffiliateSet = SchemaType<typeof affiliateSetSchema>;
