/**
 * `#schema-validators` inside a function's bundle: the validators ajv compiled
 * at build time (lib/aws/constructs/precompiled-validators.ts), found by the
 * schema's content. A schema the build did not see is a build defect, said at
 * cold start rather than answered with a wrong verdict.
 */
import { createHash } from 'node:crypto';
import type { SchemaValidators } from './schema-compiler';

/** What identifies a schema between the build and the bundle: its JSON, hashed. */
export function schemaKey(schema: object): string {
  return createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 32);
}

export function precompiledValidators(table: Record<string, SchemaValidators>): (schema: object) => SchemaValidators {
  return (schema) => {
    const found = table[schemaKey(schema)];
    if (!found) throw new Error(`no precompiled validator for this schema (${JSON.stringify(schema).slice(0, 120)}…): the build did not see it`);
    return found;
  };
}
