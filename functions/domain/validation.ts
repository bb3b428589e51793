/**
 * Request validators, and the translation of their errors into the messages
 * integrators read: `[3].urm_date_time must be an ISO 8601 date-time with a
 * time zone`. `#schema-validators` compiles the schemas with ajv when the
 * TypeScript runs as is (schema-compiler.ts); a function's bundle gets them
 * precompiled at build time instead (precompiled-validators.ts), so no schema
 * compiles at cold start. Declare validators at module scope of a module
 * without side effects (a schema.ts): the build evaluates it to find them.
 */
import type { ErrorObject } from 'ajv';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { schemaValidators } from '#schema-validators';
import { ValidationError } from './errors';
import { customNameProblem, type AttributeValuePattern } from './attributes';
import { identifierPattern, identifierProblem } from './text';

/** At most this many messages in one answer; the rest are counted. */
const MAX_MESSAGES = 100;

export interface Validator<T> {
  (input: unknown): T;
  schema: object;
}

/** A request schema, written `as const` so that its type can be derived from it. */
export type RequestSchema = Exclude<JSONSchema, boolean>;

/**
 * How the request schemas read as types: their if/then say which fields go
 * together, and an attribute value is an AttributeValue. Formats, patterns and
 * the urmAttributeName keyword narrow no type: they stay the validator's.
 */
interface RequestSchemaOptions {
  parseIfThenElseKeywords: true;
  deserialize: [AttributeValuePattern];
}

/** The type of what a request schema accepts: `type Body = FromRequestSchema<typeof bodySchema>`. */
export type FromRequestSchema<S extends JSONSchema> = FromSchema<S, RequestSchemaOptions>;

/**
 * The validator of a schema: returns the input with the schema's type, or
 * throws ValidationError with every problem. A valid input costs one pass that
 * stops at the first error; only a refused one gets the describing pass
 * (allErrors).
 */
export function compileValidator<const S extends RequestSchema>(
  schema: S,
  describeRoot = 'request body',
  /** Which of ajv's errors to describe: by default all of them. */
  select: (errors: ErrorObject[]) => ErrorObject[] = (errors) => errors,
): Validator<FromRequestSchema<S>> {
  const { fast, full } = schemaValidators(schema);
  const check = (input: unknown): FromRequestSchema<S> => {
    // What ajv accepted has the schema's type: the one cast from input to a type, here.
    if (fast(input)) return input as FromRequestSchema<S>;
    full(input);
    throw new ValidationError(formatErrors(select(full.errors ?? []), describeRoot), `${describeRoot} is invalid`);
  };
  return Object.assign(check, { schema });
}

export function formatErrors(errors: ErrorObject[], describeRoot: string): string[] {
  const messages: string[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const message = describe(error, describeRoot);
    if (message === undefined || seen.has(message)) continue;
    seen.add(message);
    messages.push(message);
  }
  return capMessages(messages);
}

export function capMessages(messages: string[]): string[] {
  if (messages.length <= MAX_MESSAGES) return messages;
  return [...messages.slice(0, MAX_MESSAGES), `… and ${messages.length - MAX_MESSAGES} more errors`];
}

/** `/3/urm_set/a b` → `[3].urm_set["a b"]` */
export function pathOf(instancePath: string, child?: string): string {
  const segments = instancePath === '' ? [] : instancePath.slice(1).split('/').map(unescapePointer);
  if (child !== undefined) segments.push(child);
  return segments
    .map((segment, i) => {
      if (/^\d+$/.test(segment)) return `[${segment}]`;
      if (/^[A-Za-z_$][\w$]*$/.test(segment)) return i === 0 ? segment : `.${segment}`;
      return `[${JSON.stringify(segment)}]`;
    })
    .join('');
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

const typeNames: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
};

function describeType(type: string | string[]): string {
  const types = Array.isArray(type) ? type : type.split(',');
  if (types.includes('string') && types.includes('number') && types.includes('boolean')) {
    return types.includes('array')
      ? 'a string, number, boolean or array (null and objects are not allowed; use urm_unset to clear a value)'
      : 'a string, number or boolean (arrays nest too deep here)';
  }
  return types.map((t) => typeNames[t] ?? t).join(' or ');
}

function describe(error: ErrorObject, root: string): string | undefined {
  // Errors of the sub-schemas of propertyNames carry the name; one message per name suffices.
  if (error.keyword !== 'propertyNames' && (error.propertyName !== undefined || error.schemaPath.includes('/propertyNames/'))) return undefined;
  const path = pathOf(error.instancePath);
  const subject = path === '' ? root : path;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'propertyNames': {
      const name = String(params.propertyName);
      const problem = customNameProblem(name) ?? 'this system attribute cannot be written here';
      return `${pathOf(error.instancePath, name)} is not allowed: ${problem}`;
    }
    case 'required':
      return `${pathOf(error.instancePath, String(params.missingProperty))} is required`;
    case 'type':
      return `${subject} must be ${describeType(params.type as string | string[])}`;
    case 'format':
      return `${subject} ${formatMessage(String(params.format))}`;
    case 'minLength':
      return params.limit === 1 ? `${subject} must not be empty` : `${subject} must be at least ${params.limit} characters`;
    case 'maxLength':
      return `${subject} must be at most ${params.limit} characters`;
    case 'minItems':
      return path === ''
        ? `${root} must hold at least ${params.limit} record${params.limit === 1 ? '' : 's'}`
        : `${subject} must hold at least ${params.limit} item${params.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return path === '' ? `${root} must hold at most ${params.limit} records` : `${subject} must hold at most ${params.limit} items`;
    case 'maxProperties':
      return `${subject} must have at most ${params.limit} attributes`;
    case 'const':
      return `${subject} must be ${JSON.stringify(params.allowedValue)}`;
    case 'enum':
      return `${subject} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'uniqueItems':
      return `${subject} must not repeat an item`;
    case 'pattern': {
      if (params.pattern === identifierPattern) return `${subject} ${identifierProblem}`;
      const description = (error.parentSchema as { description?: string } | undefined)?.description;
      return description ? `${subject} must be ${description}` : `${subject} has an invalid format`;
    }
    case 'additionalProperties':
      return `${pathOf(error.instancePath, String(params.additionalProperty))} is not allowed`;
    case 'urmAttributeName':
      return `${subject} ${error.message}`;
    case 'anyOf':
    case 'not':
    case 'if':
      return undefined;
    default:
      return `${subject} ${error.message ?? 'is invalid'}`;
  }
}

function formatMessage(format: string): string {
  switch (format) {
    case 'date-time':
      return 'must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T12:00:00Z';
    case 'ip':
      return 'must be an IPv4 or IPv6 address';
    case 'email':
      return 'must be a valid email address';
    case 'uri':
      return 'must be a valid URL';
    case 'http-url':
      return 'must be a URL starting with http:// or https://';
    case 'youtube':
      return 'must be a full YouTube URL or a handle starting with @';
    case 'iana-time-zone':
      return 'must be an IANA time zone name, e.g. Europe/Malta';
    case 'urm-topic':
      return 'must be a topic name: letters, digits, and _ . : - after the first';
    case 'bcp47':
      return 'must be a BCP 47 language tag, e.g. en or pt-BR';
    default:
      return `must be a valid ${format}`;
  }
}
