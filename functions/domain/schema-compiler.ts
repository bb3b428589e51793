/**
 * `#schema-validators` when the TypeScript runs as is (tests, tsx, the local
 * stack): ajv compiles each schema in the process. A function's bundle gets
 * the same validators precompiled instead (lib/aws/constructs/precompiled-validators.ts
 * builds them with createSchemaAjv below, so both run the same generated code)
 * and carries no ajv compiler.
 */
import { _, Ajv, Name, stringify, type CodeKeywordDefinition, type KeywordCxt, type ValidateFunction } from 'ajv';
import type AjvCore from 'ajv/dist/core';
import { attributeNameProblem, schemaFormats } from './schema-runtime';

/** The two validators of one schema. */
export interface SchemaValidators {
  /** Stops at the first error: the check of every request. */
  fast: (input: unknown) => boolean;
  /** Every error, with its schema (allErrors, verbose): only to describe a request that `fast` refused. */
  full: ValidateFunction;
}

/** Under this name the precompiled modules import schema-runtime.ts (`import * as schemaRuntime from …`). */
export const schemaRuntimeName = 'schemaRuntime';
const runtime = new Name(schemaRuntimeName);

/** The formats the schemas use, on any ajv instance: the OpenAPI document's checks (test/support/openapi.ts) need the same. */
export function addSchemaFormats(instance: AjvCore): void {
  for (const [name, format] of Object.entries(schemaFormats)) instance.addFormat(name, format);
}

/** `urmAttributeName: [system names allowed here]`: a custom attribute name or one of those; the message says why not. */
const attributeNameKeyword: CodeKeywordDefinition = {
  keyword: 'urmAttributeName',
  type: 'string',
  schemaType: 'array',
  error: {
    message: ({ data, params }) => _`JSON.stringify(${data}) + " is not allowed: " + ${params.problem}`,
    params: ({ params }) => _`{problem: ${params.problem}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schema } = cxt;
    const check = gen.scopeValue('func', { ref: attributeNameProblem, code: _`${runtime}.attributeNameProblem` });
    // The names themselves, not a path into the whole schema: standalone code then needs no copy of the schema.
    const allowed = gen.scopeValue('obj', { ref: schema, code: stringify(schema) });
    const problem = gen.const('problem', _`${check}(${data}, ${allowed})`);
    cxt.setParams({ problem });
    cxt.fail(_`${problem} !== undefined`);
  },
};

/**
 * The one ajv configuration of request schemas. `allErrors` makes the
 * describing validator; `standalone` keeps the source for ajv's standalone
 * code (an ES module importing schema-runtime.ts as `schemaRuntime`).
 */
export function createSchemaAjv(options: { allErrors: boolean; standalone?: boolean }): Ajv {
  const ajv = new Ajv({
    allErrors: options.allErrors,
    verbose: options.allErrors,
    strict: true,
    allowUnionTypes: true,
    coerceTypes: false,
    useDefaults: false,
    // A shared subschema (precompiled-validators.ts) stays one function instead of being inlined at each use.
    inlineRefs: false,
    ...(options.standalone ? { code: { source: true, esm: true, formats: _`${runtime}.schemaFormats` } } : {}),
  });
  addSchemaFormats(ajv);
  ajv.addKeyword(attributeNameKeyword);
  return ajv;
}

const fastAjv = createSchemaAjv({ allErrors: false });
const fullAjv = createSchemaAjv({ allErrors: true });

/** Compiles `schema` twice: the fast check and the describing one. */
export function schemaValidators(schema: object): SchemaValidators {
  return { fast: fastAjv.compile(schema), full: fullAjv.compile(schema) };
}
