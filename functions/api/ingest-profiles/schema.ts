/**
 * POST /profiles: an array of 1 to 500 profile records (docs/api.md,
 * "Ingestion" and "Directives"). Rules JSON Schema cannot say live in core.ts.
 */
import {
  arrayValueSchema,
  commonRecordProperties,
  crmAttributes,
  crmAttributesSchema,
  directives,
  nameSchema,
  pushTokenAttributes,
  pushTokensSchema,
  profileIdSchema,
  topicsSchema,
  valueSchema,
  writableSystemAttributes,
} from '../../domain/attributes';
import { PROOF_FIELD, proofSchema } from '../../domain/identity';
import { limits } from '../../domain/limits';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

const MAX_NAMES = 1000;

const pushTokenProperties = Object.fromEntries(pushTokenAttributes.map((name) => [name, pushTokensSchema]));

/** urm_set and urm_set_if_null: attribute → value; the system attributes typed. */
const attributeValues = {
  type: 'object',
  maxProperties: MAX_NAMES,
  propertyNames: nameSchema(writableSystemAttributes),
  properties: { ...pushTokenProperties, urm_receives_notifications: { type: 'boolean' } },
  additionalProperties: valueSchema,
  allOf: [crmAttributesSchema],
} as const;

/** The system attributes that hold lists: the push tokens and the unsubscribed topics. */
const listAttributes = [...pushTokenAttributes, 'urm_unsubscribed_topics'] as const;

/** urm_append, urm_unique_append and urm_remove: attribute → array of values. */
const attributeArrays = {
  type: 'object',
  maxProperties: MAX_NAMES,
  propertyNames: nameSchema(listAttributes),
  properties: { ...pushTokenProperties, urm_unsubscribed_topics: topicsSchema },
  additionalProperties: arrayValueSchema,
} as const;

const attributeNames = {
  type: 'array',
  maxItems: MAX_NAMES,
  items: nameSchema(writableSystemAttributes),
} as const;

/** Names a profile record may carry at its top level besides custom attributes. */
export const profileRecordFields = [
  'app_id',
  'profile_id',
  'urm_date_time',
  'urm_insert_id',
  'urm_ip',
  'urm_web_push_notification_token',
  'urm_receives_notifications',
  ...crmAttributes,
  PROOF_FIELD,
  ...directives,
] as const;

export const profileRecordSchema = {
  type: 'object',
  required: ['app_id', 'profile_id', 'urm_date_time'],
  maxProperties: MAX_NAMES,
  propertyNames: nameSchema(profileRecordFields),
  properties: {
    ...commonRecordProperties,
    urm_web_push_notification_token: pushTokensSchema,
    urm_receives_notifications: { type: 'boolean' },
    urm_set: attributeValues,
    urm_set_if_null: attributeValues,
    urm_add: {
      type: 'object',
      maxProperties: MAX_NAMES,
      propertyNames: nameSchema(),
      additionalProperties: { type: 'number' },
    },
    urm_append: attributeArrays,
    urm_unique_append: attributeArrays,
    urm_remove: attributeArrays,
    urm_unset: attributeNames,
    urm_delete: attributeNames,
    urm_merge: {
      type: 'array',
      minItems: 1,
      maxItems: limits.mergeSources,
      uniqueItems: true,
      items: profileIdSchema,
    },
    urm_delete_profile: { const: 'profile_id' },
    [PROOF_FIELD]: proofSchema,
  },
  additionalProperties: valueSchema,
  allOf: [crmAttributesSchema],
} as const;

export const profilesBodySchema = {
  type: 'array',
  minItems: 1,
  maxItems: limits.recordsPerRequest,
  items: profileRecordSchema,
} as const;

/**
 * Custom attributes come as `unknown`, at the top level and in the directives
 * that also name system attributes: FromSchema types the names outside
 * `properties` so.
 */
export type ProfileRecord = FromRequestSchema<typeof profileRecordSchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validProfilesBody = compileValidator(profilesBodySchema);
