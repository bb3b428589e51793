/**
 * The TypeScript type of a JSON Schema written `as const`: response types are
 * derived from the response schemas, so a handler that answers something the
 * schema (and with it the OpenAPI document) does not describe fails to compile.
 * Covers the keywords the response schemas use: type (one or a list), const,
 * enum, anyOf, properties, required, additionalProperties, items.
 */
type Simplify<T> = { [K in keyof T]: T[K] } & {};

type Required<S> = S extends { required: readonly (infer R)[] } ? R : never;

type PropertiesOf<S> = S extends { properties: infer P }
  ? { -readonly [K in keyof P as K extends Required<S> ? K : never]: SchemaType<P[K]> } & {
      -readonly [K in keyof P as K extends Required<S> ? never : K]?: SchemaType<P[K]>;
    }
  : unknown;

/** Only an explicit `additionalProperties` schema (or `true`) opens the object to other names. */
type AdditionalOf<S> = S extends { additionalProperties: infer A }
  ? A extends false
    ? unknown
    : A extends true
      ? Record<string, unknown>
      : Record<string, SchemaType<A>>
  : unknown;

type OfType<T, S> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { items: infer I }
            ? SchemaType<I>[]
            : unknown[]
          : T extends 'object'
            ? Simplify<PropertiesOf<S> & AdditionalOf<S>>
            : never;

export type SchemaType<S> = S extends { const: infer C }
  ? C
  : S extends { enum: readonly (infer E)[] }
    ? E
    : S extends { anyOf: readonly (infer A)[] }
      ? SchemaType<A>
      : S extends { type: readonly (infer T)[] }
        ? OfType<T, S>
        : S extends { type: infer T }
          ? OfType<T, S>
          : unknown;
