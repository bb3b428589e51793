/**
 * The request validators of a function's bundle, compiled at build time with
 * ajv's standalone code, so no schema compiles at cold start and the bundle
 * carries ajv's small runtime helpers but not its compiler.
 *
 * How: the function's own modules that declare validators (they call
 * compileValidator or schemaValidators) are bundled on their own with
 * `#schema-validators` pointing at a recorder and evaluated, which yields
 * their schemas; those modules must therefore have no side effects (schema.ts
 * modules). Each schema is compiled twice by createSchemaAjv (the fast pass
 * and the describing one, as in tests) into ES modules under
 * node_modules/.cache/urm-validators/<hash>/, whose index then stands for
 * `#schema-validators` in the bundle (esbuild `alias`), finding each validator
 * by the schema's content (functions/domain/precompiled-validators.ts).
 */
import standaloneCode from 'ajv/dist/standalone';
import { buildSync, type BuildOptions } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemaKey } from '../../../functions/domain/precompiled-validators';
import { createSchemaAjv, schemaRuntimeName } from '../../../functions/domain/schema-compiler';

/** The specifier validation.ts imports its validators from (package.json `imports`). */
export const validatorsSpecifier = '#schema-validators';

const here = dirname(fileURLToPath(import.meta.url));
const recorder = join(here, 'schema-recorder.ts');
const repo = join(here, '..', '..', '..');
/** Files whose content decides the generated code, besides the schemas: they go into its cache key and the bundles' asset hash. */
export const validatorBuildFiles = [
  'lib/aws/constructs/precompiled-validators.ts',
  'lib/aws/constructs/schema-recorder.ts',
  'functions/domain/schema-compiler.ts',
  'node_modules/ajv/package.json',
].map((file) => join(repo, file));

/** A project module that declares validators at module scope. */
const declaresValidators = /(?<!function )\b(compileValidator|schemaValidators)\s*[<(]/;

/** The project's own (non-package) modules the bundle of `entry` is made of, as esbuild found them. */
function ownModules(base: BuildOptions): string[] {
  const graph = buildSync({ ...base, packages: 'external', write: false, metafile: true, minify: false, sourcemap: false, logLevel: 'silent' });
  return Object.keys(graph.metafile.inputs).filter((file) => !file.split('/').includes('node_modules') && !file.startsWith('<'));
}

/** The schemas the declaring modules compile, in the order they declare them, each once. */
function declaredSchemas(root: string, modules: string[], target: BuildOptions['target']): object[] {
  const entry = [...modules.map((file) => `import ${JSON.stringify(join(root, file))};`), `export { recordedSchemas } from ${JSON.stringify(recorder)};`].join(
    '\n',
  );
  const built = buildSync({
    stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'declared-schemas.ts' },
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target,
    write: false,
    logLevel: 'silent',
    // The modules are imported for what evaluating them records: package.json marks functions/ free of side effects.
    ignoreAnnotations: true,
    alias: { [validatorsSpecifier]: recorder },
  });
  const module = { exports: {} as { recordedSchemas?: () => object[] } };
  try {
    new Function('module', 'exports', 'require', built.outputFiles[0].text)(module, module.exports, createRequire(join(root, 'package.json')));
  } catch (error) {
    throw new Error(
      `reading the schemas of ${modules.join(', ')} failed: modules that declare validators must have no side effects (${(error as Error).message})`,
    );
  }
  const unique = new Map<string, object>();
  for (const schema of module.exports.recordedSchemas!()) unique.set(schemaKey(schema), schema);
  return [...unique.values()];
}

/** ajv's runtime helpers come as `require("ajv/dist/runtime/x").default`: as imports, the module is an ES module everywhere. */
function asEsModule(code: string, runtimeModule: string): string {
  const helpers = new Map<string, string>();
  const body = code.replace(/require\("(ajv\/dist\/runtime\/[a-z0-9_]+)"\)\.default/g, (_match, path: string) => {
    const name = `ajvRuntime_${path.split('/').pop()}`;
    helpers.set(name, path);
    return name;
  });
  if (/\brequire\(/.test(body)) throw new Error(`ajv's standalone code needs a module it cannot import: ${/require\([^)]*\)/.exec(body)![0]}`);
  const imports = [`import * as ${schemaRuntimeName} from ${JSON.stringify(runtimeModule)};`];
  for (const [name, path] of helpers) {
    imports.push(`import * as ${name}$module from ${JSON.stringify(path)};`, `const ${name} = ${schemaRuntimeName}.cjsDefault(${name}$module);`);
  }
  return `${imports.join('\n')}\n${body.replace(/^"use strict";/, '')}\n`;
}

const exportName = (key: string) => `v${key}`;

type Schema = Record<string, unknown>;
const isSchema = (node: unknown): node is Schema => node !== null && typeof node === 'object' && !Array.isArray(node);
/** Where a subschema sits, by keyword: those that hold one, and those that hold a map or a list of them. */
const oneSchema = ['items', 'additionalProperties', 'propertyNames', 'not', 'if', 'then', 'else', 'contains'];
const schemaMaps = ['properties', 'patternProperties', 'definitions'];
const schemaLists = ['anyOf', 'oneOf', 'allOf'];

function mapSubschemas(schema: Schema, visit: (sub: Schema) => Schema): Schema {
  const out: Schema = { ...schema };
  for (const key of oneSchema) if (isSchema(out[key])) out[key] = visit(out[key] as Schema);
  for (const key of schemaMaps)
    if (isSchema(out[key])) out[key] = Object.fromEntries(Object.entries(out[key] as Schema).map(([k, v]) => [k, isSchema(v) ? visit(v) : v]));
  for (const key of schemaLists) if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map((v) => (isSchema(v) ? visit(v) : v));
  return out;
}

/**
 * The schema with each large subschema it repeats defined once and referred to:
 * standalone code would otherwise hold its code at every place (the nested
 * value schema of a profile record is used a dozen times). Only subschemas
 * whose errors read the same from a definition: no propertyNames, pattern or
 * urmAttributeName, whose messages look at where the error sits in the schema.
 * With `messages: false` (the fast pass, which only answers yes or no) every
 * repeated subschema is shared: POST /profiles' ten directive maps then share
 * their attribute-name checks, which halves its validators (figure 4).
 */
export function shareRepeatedSubschemas(schema: object, options: { messages: boolean } = { messages: true }): object {
  const counts = new Map<string, number>();
  const count = (sub: Schema): Schema => {
    const json = JSON.stringify(sub);
    counts.set(json, (counts.get(json) ?? 0) + 1);
    return mapSubschemas(sub, count);
  };
  mapSubschemas(schema as Schema, count);
  const shared = new Map<string, string>();
  for (const [json, n] of counts) {
    if (n > 1 && json.length > 80 && (!options.messages || !/"(propertyNames|pattern|urmAttributeName|description)"/.test(json)))
      shared.set(json, `s${shared.size}`);
  }
  if (shared.size === 0) return schema;
  const replace = (sub: Schema): Schema => {
    const name = shared.get(JSON.stringify(sub));
    return name ? { $ref: `#/definitions/${name}` } : mapSubschemas(sub, replace);
  };
  const definitions = Object.fromEntries([...shared].map(([json, name]) => [name, mapSubschemas(JSON.parse(json) as Schema, replace)]));
  return { ...mapSubschemas(schema as Schema, replace), definitions: { ...((schema as Schema).definitions as Schema | undefined), ...definitions } };
}

/** The schema without its annotations (`description`, `title`), which decide no answer: for the fast pass, whose code may hold a copy of the schema. */
export function withoutAnnotations(schema: object): object {
  const strip = (sub: Schema): Schema => {
    const { description: _description, title: _title, ...rest } = sub;
    return mapSubschemas(rest, strip);
  };
  return strip(schema as Schema);
}

/**
 * Writes the precompiled validators of the bundle of `entry` and returns the
 * module that stands for `#schema-validators` in it, or undefined when the
 * bundle declares no validator.
 */
export function precompiledValidatorsModule(root: string, base: BuildOptions): string | undefined {
  const declaring = ownModules(base).filter((file) => declaresValidators.test(readFileSync(join(root, file), 'utf8')));
  if (declaring.length === 0) return undefined;
  const schemas = declaredSchemas(root, declaring, base.target);
  const keys = schemas.map(schemaKey);
  const cacheKey = createHash('sha256');
  cacheKey.update(JSON.stringify({ scheme: 2, keys }));
  for (const file of validatorBuildFiles) cacheKey.update(`\0${relative(repo, file)}\0${readFileSync(file)}`);
  const dir = join(root, 'node_modules', '.cache', 'urm-validators', cacheKey.digest('hex').slice(0, 32));
  const index = join(dir, 'index.mjs');
  if (existsSync(index)) return index;

  const runtimeModule = relative(dir, join(root, 'functions/domain/schema-runtime.ts'));
  const tableModule = relative(dir, join(root, 'functions/domain/precompiled-validators.ts'));
  const files: Record<string, string> = {};
  for (const pass of ['fast', 'full'] as const) {
    const ajv = createSchemaAjv({ allErrors: pass === 'full', standalone: true });
    for (const [i, schema] of schemas.entries()) {
      ajv.addSchema(pass === 'full' ? shareRepeatedSubschemas(schema) : shareRepeatedSubschemas(withoutAnnotations(schema), { messages: false }), keys[i]);
    }
    files[`${pass}.mjs`] = asEsModule(standaloneCode(ajv, Object.fromEntries(keys.map((key) => [exportName(key), key]))), runtimeModule);
  }
  files['index.mjs'] = [
    `import * as fast from './fast.mjs';`,
    `import * as full from './full.mjs';`,
    `import { precompiledValidators } from ${JSON.stringify(tableModule)};`,
    `export const schemaValidators = precompiledValidators({`,
    ...keys.map((key) => `  ${JSON.stringify(key)}: { fast: fast.${exportName(key)}, full: full.${exportName(key)} },`),
    `});`,
    '',
  ].join('\n');

  // Written aside and moved in whole: two builds at once never see half a module.
  const staging = `${dir}.${process.pid}.${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(staging, name), text);
  try {
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(index)) throw error;
  }
  return index;
}
