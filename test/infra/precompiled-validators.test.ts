/**
 * The validators a function's bundle carries are ajv's standalone code, built
 * at synth (lib/aws/constructs/precompiled-validators.ts); tests and the local
 * stack compile the same schemas in the process. Both must give the same
 * verdicts and the same messages, and no bundle may carry ajv's compiler.
 */
import { describe, expect, test } from '@jest/globals';
import type { ErrorObject } from 'ajv';
import { build } from 'esbuild';
import fc from 'fast-check';
import { pathToFileURL } from 'node:url';
import { eventsBodySchema } from '../../functions/api/ingest-events/schema';
import { profilesBodySchema } from '../../functions/api/ingest-profiles/schema';
import { registerAffiliateSchema } from '../../functions/back-office/affiliate-registration-schema';
import { httpOperations, streamConsumers } from '../../functions/manifest/operations';
import type { SchemaValidators } from '../../functions/domain/schema-compiler';
import { schemaValidators as compiledInProcess } from '../../functions/domain/schema-compiler';
import { formatErrors } from '../../functions/domain/validation';
import { esbuildOptions } from '../../lib/aws/constructs/function-code';
import { bundleOptions, repoRoot } from '../../lib/aws/constructs/function-defaults';
import { validatorsSpecifier } from '../../lib/aws/constructs/precompiled-validators';
import { eventBatch, profileBatch } from '../bench/workloads';

/**
 * Minified bytes the ingestion bundles may reach (docs/performance.md, figure 4). The target is 250 KB;
 * with the AWS SDK bundled, POST /events is about 340 KB, and POST /profiles about 495 KB, 95 KB of it the
 * standalone code of its large schema (the seven typed CRM attributes added 19 KB, their schema shared once by allOf
 * at each place a record may set them, down from 50 KB inlined). These budgets
 * hold what is reached: the ajv compiler coming back (about 120 KB) or a client a function does not use breaks them.
 */
const INGESTION_BUNDLE_BUDGET: Record<string, number> = { IngestEvents: 350 * 1024, IngestProfiles: 500 * 1024 };

/** The module that stands for `#schema-validators` in the bundle of `entry`. */
function precompiledModule(entry: string): string {
  const alias = esbuildOptions(repoRoot, entry, bundleOptions).alias ?? {};
  expect(alias[validatorsSpecifier]).toBeDefined();
  return alias[validatorsSpecifier];
}

const event = (fields: Record<string, unknown> = {}) => ({
  app_id: 'app_1',
  profile_id: 'p1',
  event: 'deposit',
  urm_date_time: '2026-11-21T10:00:00Z',
  ...fields,
});
const profile = (fields: Record<string, unknown> = {}) => ({ app_id: 'app_1', profile_id: 'p1', urm_date_time: '2026-11-21T10:00:00Z', ...fields });

const samples: [string, object, unknown[]][] = [
  [
    'POST /events',
    eventsBodySchema,
    [
      eventBatch('app_1'),
      [event({ urm_insert_id: 'i-1', urm_ip: '10.0.0.1', tags: ['a', ['b', 1, true]] })],
      [],
      {},
      'not an array',
      eventBatch('app_1', 501),
      [event({ event: '' })],
      [event({ urm_date_time: '2026-11-21 10:00' })],
      [event({ urm_date_time: '2026-11-21T10:00:00' })],
      [event({ profile_id: 'p\u0001' })],
      [event({ urmCustom: 1 })],
      [event({ Urm_x: 1, ok: null, nested: { a: 1 } })],
      [event({ urm_ip: 'not an ip' }), { app_id: 'app_1' }],
      [event({ deep: [[[[[[[[[['x']]]]]]]]]] })],
      [event({ '': 1, __proto__x: 2 })],
    ],
  ],
  [
    'POST /profiles',
    profilesBodySchema,
    [
      profileBatch('app_1'),
      [profile({ urm_delete_profile: 'profile_id' }), profile({ urm_merge: ['p2'] })],
      [profile({ urm_add: { n: 'one' } })],
      [profile({ urm_set: { urm_x: 1, ok: 2 } })],
      [profile({ urm_set: { urm_receives_notifications: 'yes' } })],
      [profile({ urm_append: { list: 'not an array' } })],
      [profile({ urm_delete_profile: 'yes' })],
      [profile({ urm_merge: [] })],
      [profile({ urm_web_push_notification_token: [1] })],
      [profile({ urm_unset: ['urmA', 'fine'] })],
      [profile({ urm_unknown: {} })],
      [profile({ urm_set_if_null: { urm_x: 1 } }), profile({ urm_remove: { 'a\u0001': [1] } })],
      [profile({ urm_unique_append: { games: [{}] }, urm_set: { urm_receives_notifications: true, tier: [[[[[[[[[['x']]]]]]]]]] } })],
    ],
  ],
  [
    'POST /api/register_affiliate',
    registerAffiliateSchema,
    [
      { app_id: 'app_1', email: 'a@example.com', username: 'ann', password: 'long enough password 1', first_name: 'Ann', last_name: 'Lee' },
      { app_id: 'app_1', email: 'not an email', first_name: '', skype: 'x' },
      {},
    ],
  ],
];

const verdict = (validators: SchemaValidators, input: unknown) => {
  const fast = validators.fast(input);
  const full = validators.full(input);
  const errors = (validators.full.errors ?? []) as ErrorObject[];
  return {
    fast,
    full,
    messages: formatErrors(errors, 'request body'),
    errors: errors.map(({ instancePath, keyword, params, message }) => ({ instancePath, keyword, params, message })),
  };
};

describe("a bundle's precompiled validators", () => {
  test.each(samples)('agree with the validators compiled in the process on %s', async (_name, schema, inputs) => {
    const entry =
      _name === 'POST /events'
        ? 'functions/api/ingest-events/handler.ts'
        : _name === 'POST /profiles'
          ? 'functions/api/ingest-profiles/handler.ts'
          : 'functions/api/register-affiliate/handler.ts';
    const precompiled = (await import(pathToFileURL(precompiledModule(entry)).href)) as { schemaValidators: (schema: object) => SchemaValidators };
    const inBundle = precompiled.schemaValidators(schema);
    const inProcess = compiledInProcess(schema);

    const results = inputs.map((input) => [verdict(inBundle, input), verdict(inProcess, input)]);

    for (const [bundled, compiled] of results) expect(bundled).toEqual(compiled);
    // The samples cover both verdicts, and refusals that say why.
    expect(results.some(([bundled]) => bundled.fast)).toBe(true);
    expect(results.filter(([bundled]) => !bundled.fast).every(([bundled]) => bundled.messages.length > 0)).toBe(true);
  });

  test('agree with the validators compiled in the process on generated profile records', async () => {
    // The bundle's code shares repeated subschemas (one function each); the process compiles them in place.
    const precompiled = (await import(pathToFileURL(precompiledModule('functions/api/ingest-profiles/handler.ts')).href)) as {
      schemaValidators: (schema: object) => SchemaValidators;
    };
    const inBundle = precompiled.schemaValidators(profilesBodySchema);
    const inProcess = compiledInProcess(profilesBodySchema);
    const names = fc.constantFrom(
      'tier',
      'games',
      'urm_x',
      'urm_receives_notifications',
      'urm_web_push_notification_token',
      'Urm_y',
      '',
      'a\u0001',
      'x'.repeat(300),
    );
    const values = fc.constantFrom<unknown>(1, -2.5, 'a', '', true, null, {}, [], ['a', 1], [[1]], [{ a: 1 }], { a: 1 }, [[[[[[[[[['x']]]]]]]]]]);
    const directive = fc.constantFrom(
      'urm_set',
      'urm_set_if_null',
      'urm_add',
      'urm_append',
      'urm_unique_append',
      'urm_remove',
      'urm_unset',
      'urm_merge',
      'urm_delete_profile',
      'urm_delete',
      'urm_nope',
    );
    const directiveValue = fc.oneof(fc.dictionary(names, values, { maxKeys: 3 }), fc.array(fc.oneof(names, values), { maxLength: 3 }), values);
    const record = fc
      .tuple(fc.dictionary(directive, directiveValue, { maxKeys: 3 }), fc.dictionary(names, values, { maxKeys: 2 }))
      .map(([directives, top]) => profile({ ...top, ...directives }));

    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 3 }), (body) => {
        expect(verdict(inBundle, body)).toEqual(verdict(inProcess, body));
      }),
      { numRuns: 400, seed: 17 },
    );
  });

  test('refuse a schema the build did not see, rather than answer for it', async () => {
    const precompiled = (await import(pathToFileURL(precompiledModule('functions/api/ingest-events/handler.ts')).href)) as {
      schemaValidators: (schema: object) => SchemaValidators;
    };

    expect(() => precompiled.schemaValidators({ type: 'string', maxLength: 3 })).toThrow(/the build did not see it/);
  });
});

describe('function bundles', () => {
  test('carry no ajv compiler: only its runtime helpers', async () => {
    const carried: Record<string, string[]> = {};
    for (const { id, entry } of [...httpOperations, ...streamConsumers]) {
      const graph = await build({ ...esbuildOptions(repoRoot, entry, bundleOptions), packages: 'external', write: false, metafile: true, logLevel: 'silent' });
      const packages = Object.values(graph.metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external).map((i) => i.path));
      carried[id] = [...new Set(packages.filter((path) => /^ajv(\/|$)/.test(path) && !path.startsWith('ajv/dist/runtime/')))];
    }
    expect(Object.entries(carried).filter(([, paths]) => paths.length > 0)).toEqual([]);
  });

  test.each(['IngestEvents', 'IngestProfiles'])('%s stays within its size budget, without ajv/dist/compile', async (id) => {
    const { entry } = httpOperations.find((operation) => operation.id === id)!;
    const built = await build({
      ...esbuildOptions(repoRoot, entry, bundleOptions),
      outfile: '/urm-budget/index.mjs',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const output = Object.values(built.metafile.outputs).find((o) => o.entryPoint)!;

    expect(Object.keys(output.inputs).filter((path) => path.includes('ajv/dist/compile'))).toEqual([]);
    expect(output.bytes).toBeLessThanOrEqual(INGESTION_BUNDLE_BUDGET[id]);
  });
});
