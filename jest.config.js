/**
 * `npm test`: every test, in projects that say what they test. One runner
 * (test/support/jest/phased-runner.cjs) orders them: the load test first, alone
 * on a quiet machine; then everything else in parallel; then the log audit,
 * which reads what the shared local stack logged during the integration and e2e
 * tests. Those projects share one local stack, started by globalSetup.
 *   npm test                       everything
 *   npm test -- test/unit          a subset, by path
 *   npm test -- --selectProjects unit infra
 *   npm test -- --coverage         with the coverage report and its thresholds
 */
import { availableParallelism } from 'node:os';

// What every test process starts with (a stack a test starts itself sets its own).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
// Metrics are counted, not printed; the metrics test turns them on for itself.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }];
// Pages are Preact components in .tsx (tsconfig.json: jsx react-jsx, jsxImportSource preact).
const swcTsx = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2022', transform: { react: { runtime: 'automatic', importSource: 'preact' } } },
    module: { type: 'es6' },
  },
];

const base = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
  transform: { '^.+\\.ts$': swc, '^.+\\.tsx$': swcTsx },
  runner: '<rootDir>/test/support/jest/phased-runner.cjs',
  // Objects a test file leaves on the global scope go with it, as they would in a fresh process.
  testEnvironmentOptions: { globalsCleanup: 'on' },
  rootDir: '.',
};

/** The projects that talk to the shared local stack over HTTP. */
const withStack = {
  globalSetup: '<rootDir>/test/support/jest/stack-setup.js',
  globalTeardown: '<rootDir>/test/support/jest/stack-teardown.js',
  setupFiles: ['<rootDir>/test/support/secret-recorder.ts'],
};

const project = (name, options = {}) => ({
  ...base,
  displayName: name,
  testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
  ...options,
});

export default {
  projects: [
    project('static'),
    project('unit', { setupFilesAfterEnv: ['<rootDir>/test/support/jest/matchers.ts'] }),
    project('infra'),
    project('integration', withStack),
    project('e2e', withStack),
    project('fault'),
    project('load'),
    project('audit', withStack),
  ],
  reporters: ['default', '<rootDir>/test/support/jest/summary-reporter.cjs'],
  // jest's default (one fewer than the cores) is a single worker on a 2-core machine; the tests mostly wait on I/O.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // A test that talks to a local stack, Chromium or the CDK may take minutes; none may hang forever.
  testTimeout: 300_000,
  // The console's front end (functions/console/ui) stays out, as it did under web-sdk/console: its pages are tested in Chromium (e2e).
  collectCoverageFrom: [
    'functions/**/*.ts',
    'functions/**/*.tsx',
    '!functions/console/ui/**',
    'lib/**/*.ts',
    'bin/**/*.ts',
    'web-sdk/src/**/*.ts',
    '!**/*.d.ts',
  ],
  coverageProvider: 'v8',
  coverageReporters: ['text-summary', 'lcov'],
  // The unit project's own level (November 2026): any run that includes it must not fall below.
  coverageThreshold: { global: { statements: 74, branches: 90, functions: 77, lines: 74 } },
};
