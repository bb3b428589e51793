/**
 * `npm test`: type-check, start one local stack for the integration tests,
 * run every test file with node's test runner, stop the stack.
 *   npm test                    everything
 *   npm test -- test/unit       only files under the given paths
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot, startTestStack, type StartedTestStack } from './support/local-stack';

function testFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : testFiles(path);
      return name.endsWith('.test.ts') ? [path] : [];
    })
    .sort();
}

const filters = process.argv.slice(2).map((arg) => arg.replace(/\/$/, ''));
const files = testFiles(join(repoRoot, 'test'))
  .map((file) => relative(repoRoot, file))
  .filter((file) => filters.length === 0 || filters.some((f) => file === f || file.startsWith(`${f}/`)));
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}

const run = (command: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
  spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', env }).status ?? 1;

if (filters.length === 0 && run('npx', ['tsc', '--noEmit']) !== 0) {
  console.error('type check failed');
  process.exit(1);
}

const { spawn } = await import('node:child_process');
const nodeTest = (testFiles: string[], concurrency: number, env: NodeJS.ProcessEnv) =>
  new Promise<number>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, '--test-timeout=300000', ...testFiles],
      {
        cwd: repoRoot,
        stdio: 'inherit',
        env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN', ...env },
      },
    );
    child.on('exit', (code) => resolve(code ?? 1));
  });

// Load tests (test/load/) run first and one at a time, on an otherwise quiet machine: the rate they
// find is the stack's, and their load does not slow the other tests down. Each starts its own stack.
const alone = files.filter((file) => file.startsWith('test/load/'));
let aloneStatus = 0;
for (const file of alone) aloneStatus = (await nodeTest([file], 1, {})) || aloneStatus;
files.splice(0, files.length, ...files.filter((file) => !alone.includes(file)));

let stack: StartedTestStack | undefined;
const needsStack = files.some((file) => file.startsWith('test/integration/') || file.startsWith('test/e2e/'));
if (needsStack) {
  stack = await startTestStack();
  console.log(`local stack for the tests at ${stack.baseUrl}`);
}

// The stack lives in this process, so the runner must not block it: run it asynchronously.
const status =
  files.length === 0 ? 0 : await nodeTest(files, 2, stack ? { URM_TEST_STACK: JSON.stringify({ ...stack, stop: undefined }) } : {});

await stack?.stop();
process.exit(status || aloneStatus);
