/**
 * POST /api/register_affiliate (docs/api.md, "register_affiliate").
 *
 * Before the schema runs, the body is normalised: every string but `app_id`
 * and `password` is trimmed, and optional fields that are null or empty are
 * dropped (ignored: not checked, not stored). The schema then sees exactly what
 * will be stored, and each field gets at most one message: the first rule it
 * breaks, naming the field.
 */
import type { ErrorObject } from 'ajv';
import { affiliateContactFields } from '../domain/affiliates';
import { appIdSchema } from '../domain/attributes';
import { ValidationError } from '../domain/errors';
import type { SchemaType } from '../domain/schema-type';
import { identifierText } from '../domain/text';
import { compileValidator, type FromRequestSchema, type Validator } from '../domain/validation';

/** Upper bounds of the fields, urm's choice (docs/api.md, "register_affiliate"). */
export const affiliateLimits = {
  passwordMin: 8,
  passwordMax: 256,
  /** RFC 5321's bound on a forward path. */
  emailMax: 254,
  usernameMax: 64,
  nameMax: 100,
  urlMax: 2048,
  phoneMax: 64,
} as const;

const noControlCharacters = { pattern: '^[^\\p{Cc}]*$', description: 'free of control characters' } as const;
const phone = {
  type: 'string',
  maxLength: affiliateLimits.phoneMax,
  pattern: '^\\+(?:[ ()-]*[0-9]){7,20}[ ()-]*$',
  description: '+ followed by 7 to 20 digits (spaces, dashes and parentheses allowed)',
} as const;
const name = { type: 'string', minLength: 1, maxLength: affiliateLimits.nameMax, ...noControlCharacters } as const;

export const registerAffiliateSchema = {
  type: 'object',
  required: ['app_id', 'password', 'email', 'username', 'first_name', 'last_name'],
  additionalProperties: false,
  properties: {
    app_id: appIdSchema,
    password: { type: 'string', minLength: affiliateLimits.passwordMin, maxLength: affiliateLimits.passwordMax },
    email: { type: 'string', minLength: 1, maxLength: affiliateLimits.emailMax, format: 'email' },
    username: { type: 'string', minLength: 1, maxLength: affiliateLimits.usernameMax, ...identifierText },
    first_name: name,
    last_name: name,
    website_url: { type: 'string', maxLength: affiliateLimits.urlMax, format: 'http-url' },
    phone_number: phone,
    telegram: {
      type: 'string',
      pattern: '^[A-Za-z0-9_]{5,32}$',
      description: '5 to 32 characters: letters, digits and underscores',
    },
    youtube: { type: 'string', maxLength: affiliateLimits.urlMax, format: 'youtube' },
    facebook: {
      type: 'string',
      pattern: '^[A-Za-z0-9.]{5,50}$',
      description: '5 to 50 characters: letters, digits and periods',
    },
    whatsapp: phone,
    skype: {
      type: 'string',
      pattern: '^[A-Za-z0-9.,_-]{5,32}$',
      description: '5 to 32 characters: letters, digits, periods, commas, dashes and underscores',
    },
  },
} as const;

export type RegisterAffiliateInput = FromRequestSchema<typeof registerAffiliateSchema>;

export const registrationSchema = {
  type: 'object',
  required: ['login_url', 'affiliate_id'],
  additionalProperties: false,
  properties: {
    login_url: {
      type: ['string', 'null'],
      format: 'uri',
      description:
        "The portal's sign-in page, where the affiliate signs in: on the application's portal origin. Null when the application has none " +
        "set yet (never an address taken from the request's headers); the affiliate is registered either way.",
    },
    affiliate_id: { type: 'string', minLength: 1 },
  },
} as const;

export type Registration = SchemaType<typeof registrationSchema>;

const untrimmed = new Set(['app_id', 'password']);
const optional = new Set<string>(affiliateContactFields);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Trimmed strings, and no optional field that is null or empty. Not an object: the body is invalid. */
export function normaliseRegistration(input: unknown): Record<string, unknown> {
  if (!isPlainObject(input)) throw new ValidationError(['body is invalid'], 'body is invalid');
  // fromEntries defines own properties, so a "__proto__" field stays a field (and is refused as unknown).
  return Object.fromEntries(
    Object.entries(input)
      .map(([field, value]) => [field, typeof value === 'string' && !untrimmed.has(field) ? value.trim() : value] as const)
      .filter(([field, value]) => !(optional.has(field) && (value === null || value === ''))),
  );
}

/** The top-level field an error is about. */
function fieldOf(error: ErrorObject): string {
  if (error.keyword === 'required') return String(error.params.missingProperty);
  if (error.keyword === 'additionalProperties') return String(error.params.additionalProperty);
  return error.instancePath.split('/')[1] ?? '';
}

export function firstPerField(errors: ErrorObject[]): ErrorObject[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const field = fieldOf(error);
    if (seen.has(field)) return false;
    seen.add(field);
    return true;
  });
}

const shape = compileValidator(registerAffiliateSchema, 'request body', firstPerField);

/** Returns the normalised registration, or throws one message per field that breaks a rule. */
export const validRegistration: Validator<RegisterAffiliateInput> = Object.assign((input: unknown) => shape(normaliseRegistration(input)), {
  schema: registerAffiliateSchema,
});
