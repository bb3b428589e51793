/**
 * Which way imports may point (docs/architecture.md, "Layout"), checked by
 * `npm run deps`: bin → lib → functions, lib → web-sdk, test → anything;
 * nothing under functions/ or web-sdk/ reaches lib/ or bin/; no entry point
 * (an integrator operation, a consumer, a scheduled function, a browser UI's
 * routed function) imports another, and the code they share never imports one.
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
        'A Lambda bundle is functions/ and packages only: what lib or bin need from the service (operations, tables, secrets) comes from functions/manifest, never the other way.',
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
      name: 'console-ui-only-types-from-server',
      severity: 'error',
      comment:
        "The console's front end (functions/console/ui, bundled for the browser) takes its answer types from the server's route modules (erased at build) but no server code: a server module in the browser bundle would carry Node and AWS code, and secrets' handling, to every visitor.",
      from: { path: '^functions/console/ui/' },
      // functions/ui is the browser-safe code the console shares with the portal (its own rule below holds it so).
      to: { path: '^(functions|lib|bin|web-sdk)/', pathNot: ['^functions/console/ui/', '^functions/ui/'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-server-to-console-ui',
      severity: 'error',
      comment: "Server code never imports the console's front end: it is browser code, built on its own (lib/console/build.ts), never in a Lambda bundle.",
      from: { path: '^functions/', pathNot: '^functions/console/ui/' },
      to: { path: '^functions/console/ui/' },
    },
    {
      name: 'no-operation-to-operation',
      severity: 'error',
      comment:
        'An integrator operation, consumer or scheduled function never imports another entry point: code two of them share lives in the shared folders (domain, adapters, http, …).',
      from: { path: '^functions/(api|consumers|scheduled)/([^/]+)/' },
      to: { path: '^functions/(api|consumers|scheduled|console|affiliate-portal|enterprise-portal)/', pathNot: '^functions/$1/$2/' },
    },
    {
      name: 'no-ui-to-other-entry',
      severity: 'error',
      comment:
        'A browser UI (the console, the affiliate portal, the enterprise portal) never imports another UI or an operation: what they share lives in the shared folders (back-office, http, …).',
      from: { path: '^functions/(console|affiliate-portal|enterprise-portal)/' },
      to: { path: '^functions/(api|consumers|scheduled|console|affiliate-portal|enterprise-portal)/', pathNot: '^functions/$1/' },
    },
    {
      name: 'shared-not-to-entry',
      severity: 'error',
      comment:
        'The shared folders (domain, adapters, http, stream, manifest, messaging, back-office, runtime) are what entry points are made of: they never import an entry point, or every bundle would carry it.',
      from: { path: '^functions/(domain|adapters|http|stream|manifest|messaging|back-office|runtime)/' },
      // But the manifest gathers each browser UI's route declarations (pure data: paths, grants, schemas).
      to: {
        path: '^functions/(api|consumers|scheduled|console|affiliate-portal|enterprise-portal)/',
        pathNot: '^functions/(console|affiliate-portal|enterprise-portal)/routes\\.ts$',
      },
    },
    {
      name: 'ui-runs-in-the-browser-too',
      severity: 'error',
      comment:
        "functions/ui/ (the design system, the chart, the number formats) is imported by the server-rendered portal and by the console in the browser: it imports only itself, Preact and the two libraries of the design system's browser components (TanStack Table's core, uPlot), and of the service only types (no Node module, no AWS client, no store).",
      from: { path: '^functions/ui/' },
      to: { pathNot: '^(functions/ui/|node_modules/(preact|@tanstack/table-core|@tanstack/store|uplot)/)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'one-module-per-client',
      severity: 'error',
      comment:
        'Each AWS SDK client has its own module in functions/adapters/clients/, so a function bundles only the clients it imports: a client module (or a barrel there) that imported another client would put that client in every bundle that uses the first.',
      from: { path: '^functions/adapters/clients/' },
      to: { path: '^functions/adapters/clients/' },
    },
    {
      name: 'no-clients-barrel',
      severity: 'error',
      comment: 'Import a client from its own module (functions/adapters/clients/<service>.ts): an index there would bundle every client into every function.',
      from: {},
      to: { path: '^functions/adapters/clients(/index)?\\.ts$' },
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
    exclude: { path: ['^cdk\\.out/', '^web-sdk/dist/', '^dist/', '^\\.urm/'] },
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
