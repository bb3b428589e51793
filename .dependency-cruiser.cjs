/**
 * Which way imports may point (docs/architecture.md, "Layout"), checked by
 * `npm run deps`: bin → lib → functions, lib → web-sdk, test → anything;
 * nothing under functions/ or web-sdk/ reaches lib/ or bin/, and no
 * operation (a functions/* folder other than shared) imports another.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle ties its modules into one: break it by moving what both need to the module they both may import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing on disk (a moved or misspelt module, or a package missing from package.json).',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'functions-only-functions',
      severity: 'error',
      comment:
        'A Lambda bundle is functions/ and packages only: what lib or bin need from the service (operations, tables, secrets) comes from functions/shared/manifest, never the other way.',
      from: { path: '^functions/' },
      to: { path: '^(lib|bin|test)/' },
    },
    {
      name: 'web-sdk-only-types-from-service',
      severity: 'error',
      comment: 'The browser SDK may take types from the service (erased at build) but no code: its bundles stay lean and stand alone.',
      from: { path: '^web-sdk/' },
      to: { path: '^(functions|lib|bin)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-operation-to-operation',
      severity: 'error',
      comment: 'An operation never imports another operation: code two of them share lives in functions/shared (domain, http, …).',
      from: { path: '^functions/([^/]+)/', pathNot: '^functions/shared/' },
      to: { path: '^functions/[^/]+/', pathNot: ['^functions/$1/', '^functions/shared/'] },
    },
    {
      name: 'one-module-per-client',
      severity: 'error',
      comment:
        'Each AWS SDK client has its own module in functions/shared/clients/, so a function bundles only the clients it imports: a client module (or a barrel there) that imported another client would put that client in every bundle that uses the first.',
      from: { path: '^functions/shared/clients/' },
      to: { path: '^functions/shared/clients/', pathNot: '^functions/shared/clients/keep-alive\\.ts$' },
    },
    {
      name: 'no-clients-barrel',
      severity: 'error',
      comment: 'Import a client from its own module (functions/shared/clients/<service>.ts): an index there would bundle every client into every function.',
      from: {},
      to: { path: '^functions/shared/clients(/index)?\\.ts$' },
    },
    {
      name: 'lib-not-to-bin-or-test',
      severity: 'error',
      comment: 'lib is what bin runs: the CDK stack, the local stack, the tooling. It never reaches back into bin or into test.',
      from: { path: '^lib/' },
      to: { path: '^(bin|test)/' },
    },
    {
      name: 'only-test-imports-test',
      severity: 'error',
      comment: 'Test support is for tests: nothing that ships or runs the service imports test/.',
      from: { pathNot: '^test/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^cdk\\.out/', '^web-sdk/dist/', '^\\.urm/'] },
    // Type-only imports count too: the web-sdk rule tells them apart, and a cycle of types is still a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
