/**
 * The request and response schemas the functions validate with, turned into
 * OpenAPI 3.1 Schema Objects (JSON Schema 2020-12). The functions' schemas are
 * never edited for the document: what ajv alone understands is translated here
 * into plain JSON Schema that accepts and refuses exactly the same values.
 */
import { identifierPattern, portableIdentifierPattern } from '../../functions/domain/text';
import { limits } from '../../functions/domain/limits';

export type SchemaObject = Record<string, unknown>;

/** Formats the functions add to ajv (functions/domain/validation.ts), worded for readers. */
export const customFormats: Record<string, string> = {
  ip: 'an IPv4 or IPv6 address',
  'http-url': 'an absolute http:// or https:// URL with a host',
  youtube: 'a full YouTube URL (youtube.com, youtu.be) or a handle such as @channel',
};

/** Keywords whose value is one subschema. */
const subschemaKeywords = ['additionalProperties', 'items', 'propertyNames', 'not', 'contains', 'if', 'then', 'else'];
/** Keywords whose value is a list of subschemas. */
const subschemaListKeywords = ['anyOf', 'allOf', 'oneOf', 'prefixItems'];
/** Keywords whose value maps names to subschemas. */
const subschemaMapKeywords = ['properties', 'patternProperties', '$defs'];

/**
 * `urmAttributeName: [system names]` (validation.ts): one of those names, or a
 * custom attribute name (customNameProblem). The same rule in JSON Schema,
 * plus the list of system names as an extension for generators.
 */
function attributeName(systemNames: readonly string[]): SchemaObject {
  // customNameProblem is the rule this mirrors: keep the two from parting ways.
  const custom = {
    minLength: 1,
    maxLength: limits.attributeNameLength,
    not: { anyOf: [{ pattern: '^[Uu][Rr][Mm]' }, { const: '__proto__' }] },
  };
  const allowed = systemNames.length > 0 ? { anyOf: [{ enum: [...systemNames] }, custom] } : custom;
  const system = systemNames.length > 0 ? `, or one of ${systemNames.join(', ')}` : '';
  return {
    description: `a custom attribute name (1 to ${limits.attributeNameLength} characters, not starting with "urm" in any case, not "__proto__")${system}`,
    'x-urm-attribute-name': { system_names: [...systemNames] },
    ...allowed,
  };
}

/**
 * A Schema Object for `schema`: a deep copy with ajv-only keywords translated.
 * `components` maps schema objects (by identity) to the name they are
 * published under in `#/components/schemas`; those become `$ref`s, unless
 * `inline` (the component itself).
 */
export function toSchemaObject(schema: unknown, components: ReadonlyMap<object, string> = new Map(), inline = false): SchemaObject {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new Error(`not a schema: ${JSON.stringify(schema)}`);
  }
  const named = components.get(schema);
  if (named !== undefined && !inline) return { $ref: `#/components/schemas/${named}` };

  const source = schema as SchemaObject;
  const result: SchemaObject = {};
  for (const [keyword, value] of Object.entries(source)) {
    if (keyword === 'urmAttributeName') {
      Object.assign(result, attributeName(value as string[]));
    } else if (keyword === 'pattern' && value === identifierPattern) {
      // The identifier rule in escapes every dialect reads; the service checks the exact one (functions/domain/text.ts).
      result.pattern = portableIdentifierPattern;
    } else if (keyword === '$id') {
      // Identifiers of ajv's registry mean nothing inside the document.
    } else if (subschemaKeywords.includes(keyword) && typeof value === 'object' && value !== null) {
      result[keyword] = toSchemaObject(value, components);
    } else if (subschemaListKeywords.includes(keyword)) {
      result[keyword] = (value as unknown[]).map((item) => toSchemaObject(item, components));
    } else if (subschemaMapKeywords.includes(keyword)) {
      result[keyword] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, item]) => [name, toSchemaObject(item, components)]));
    } else {
      result[keyword] = structuredClone(value);
    }
  }
  const format = source.format;
  if (typeof format === 'string' && format in customFormats && result.description === undefined) {
    result.description = customFormats[format];
  }
  return result;
}
