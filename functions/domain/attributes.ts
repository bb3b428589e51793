/**
 * Names and values of profile and event attributes: the building blocks of the
 * ingestion schemas (docs/api.md, "Ingestion", "Records").
 */
import { limits } from './limits';
import { identifierText } from './text';

export type AttributeValue = string | number | boolean | AttributeValue[];
export type Attributes = Record<string, AttributeValue | null>;

/** The fields every record carries besides its attributes. */
export const requiredFields = ['app_id', 'profile_id', 'urm_date_time'] as const;

/** The ten profile directives, in the order a record applies them (urm_delete_profile stands alone). */
export const directives = [
  'urm_set',
  'urm_set_if_null',
  'urm_add',
  'urm_append',
  'urm_unique_append',
  'urm_remove',
  'urm_unset',
  'urm_delete',
  'urm_merge',
  'urm_delete_profile',
] as const;
export type Directive = (typeof directives)[number];

export const pushTokenAttributes = ['urm_web_push_notification_token', 'urm_ios_push_notification_token', 'urm_android_push_notification_token'] as const;

/** The push system attributes: the only system attributes a browser key may touch (browser-access.ts). */
export const pushSystemAttributes = [...pushTokenAttributes, 'urm_receives_notifications'] as const;

/** A player's responsible-gambling status; absent counts as `none`. */
export const rgStatuses = ['none', 'cool_off', 'self_excluded', 'blocked'] as const;

/**
 * The CRM's reserved attributes (docs/api.md, "CRM attributes"): typed, and
 * written with a server key only, since each decides whether the player may
 * be marketed to.
 */
export const crmAttributes = [
  'urm_rg_status',
  'urm_rg_until',
  'urm_consent_email',
  'urm_consent_sms',
  'urm_unsubscribed_topics',
  'urm_timezone',
  'urm_language',
  'urm_email_suppressed',
] as const;
export type CrmAttribute = (typeof crmAttributes)[number];

/** System attributes a server key may change through directives (a browser key: the push ones only). */
export const writableSystemAttributes = [...pushSystemAttributes, ...crmAttributes] as const;

/** Affiliate tracking attributes: set only by set_affiliate, never through /profiles. */
export const affiliateAttributes = ['urm_aff_id', 'urm_aff_link_id', 'urm_aff'] as const;

const RESERVED_PREFIX = /^urm/i;

/** Why a name cannot be a custom attribute, or undefined when it can. */
export function customNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'attribute names must not be empty';
  if ([...name].length > limits.attributeNameLength) return `attribute names must be at most ${limits.attributeNameLength} characters`;
  if (RESERVED_PREFIX.test(name)) return 'names starting with "urm" are reserved for system attributes and directives';
  if (name === '__proto__') return 'the name "__proto__" is reserved';
  return undefined;
}

// ---- JSON Schema pieces -------------------------------------------------

/**
 * A name of a custom attribute, or one of `systemNames`. Checked by the
 * `urmAttributeName` keyword (validation.ts) so that the message says why.
 */
export function nameSchema(systemNames: readonly string[] = []) {
  return { type: 'string', urmAttributeName: systemNames } as const;
}

const scalar = { type: ['string', 'number', 'boolean'] } as const;

/** A value: string, finite number, boolean, or an array of values nested at most `depth` deep. */
function valueAt(depth: number): object {
  return depth === 0 ? scalar : { type: ['string', 'number', 'boolean', 'array'], items: valueAt(depth - 1) };
}
/**
 * Its outer level spelt out: FromSchema reads a schema of these four types as
 * an AttributeValue (attributeValuePattern), a type no finite schema spells.
 */
export const valueSchema = { type: ['string', 'number', 'boolean', 'array'], items: valueAt(limits.valueDepth - 1) } as const;

/** The FromSchema deserialization pattern of valueSchema (functions/domain/validation.ts). */
export interface AttributeValuePattern {
  pattern: { type: typeof valueSchema.type };
  output: AttributeValue;
}
export const arrayValueSchema = { type: 'array', items: valueAt(limits.valueDepth - 1) } as const;

export const pushTokensSchema = {
  type: 'array',
  maxItems: limits.pushTokensPerProfile,
  items: { type: 'string', minLength: 1, maxLength: limits.pushTokenLength },
} as const;

/** A marketing topic a player may leave (`sports`, `casino`, `vip`): a name the operator chooses, a plain slug (format `urm-topic`). */
export const topicSchema = { type: 'string', minLength: 1, maxLength: limits.topicLength, format: 'urm-topic' } as const;
export const topicsSchema = { type: 'array', maxItems: limits.topicsPerProfile, uniqueItems: true, items: topicSchema } as const;

/** Each CRM attribute's value, wherever a record sets it. */
export const crmAttributeSchemas = {
  urm_rg_status: { type: 'string', enum: rgStatuses },
  urm_rg_until: { type: 'string', format: 'date-time', maxLength: 64 },
  urm_consent_email: { type: 'boolean' },
  urm_consent_sms: { type: 'boolean' },
  urm_unsubscribed_topics: topicsSchema,
  urm_timezone: { type: 'string', format: 'iana-time-zone', maxLength: 64 },
  urm_language: { type: 'string', format: 'bcp47', maxLength: 35 },
  // Set by urm on a hard bounce or a complaint (send-gate.ts); an integrator may set or clear it (an imported suppression list, a fixed address).
  urm_email_suppressed: { type: 'string', enum: ['bounce', 'complaint'] },
} as const satisfies Record<CrmAttribute, object>;

/**
 * The CRM attributes as one subschema, for each place a record may set them
 * (`allOf`): the bundle's precompiled validators then hold its code once, not
 * at every place (precompiled-validators.ts, shareRepeatedSubschemas).
 */
export const crmAttributesSchema = { type: 'object', properties: crmAttributeSchemas } as const;

export const appIdSchema = { type: 'string', minLength: 1, maxLength: limits.appIdLength, ...identifierText } as const;
export const profileIdSchema = { type: 'string', minLength: 1, maxLength: limits.profileIdLength, ...identifierText } as const;

/**
 * The insert ids the service gives records written with a browser key
 * (browser-access.ts): no request may send one, so a browser-key record and a
 * server-key record never share an id, and neither is ever the other's duplicate.
 */
export const BROWSER_INSERT_ID_PREFIX = 'urm-browser-';

/** Properties every record may carry: the required ones, the insert id and the IP. */
export const commonRecordProperties = {
  app_id: appIdSchema,
  profile_id: profileIdSchema,
  urm_date_time: { type: 'string', format: 'date-time', maxLength: 64 },
  urm_insert_id: {
    type: 'string',
    minLength: 1,
    maxLength: limits.insertIdLength,
    ...identifierText,
    allOf: [
      {
        pattern: `^(?!${BROWSER_INSERT_ID_PREFIX})`,
        description: `an id that does not start with ${BROWSER_INSERT_ID_PREFIX}, which the service keeps for the records of browser keys`,
      },
    ],
  },
  urm_ip: { type: 'string', format: 'ip' },
} as const;
