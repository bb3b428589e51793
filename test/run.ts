/**
 * `npm test`: type-check, start one local stack for the integration tests,
 * run every test file with node's test runner, stop the stack.
 *   npm test                    everything
 *   npm test -- test/unit       only files under the given paths
 *
 * The shared stack's output (handlers' logs at every level, the poller's and
 * server's messages) goes to a file; the console shows warnings and errors.
 * When the integration or e2e tests ran, the log audit (test/audit/) runs
 * last, over that file and the secrets the tests used.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { captureProcessOutput, type LogCapture } from './support/log-capture';
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
const allFiles = testFiles(join(repoRoot, 'test')).map((file) => relative(repoRoot, file));
const isAudit = (file: string) => file.startsWith('test/audit/');
const files = allFiles
  .filter((file) => filters.length === 0 || filters.some((f) => file === f || file.startsWith(`${f}/`)));
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}
const needsStack = files.some((file) => file.startsWith('test/integration/') || file.startsWith('test/e2e/'));
// The audit reads the logs of the tests that ran against the shared stack: it follows them, never runs alone.
if (files.every(isAudit) || (files.some(isAudit) && !needsStack)) {
  console.error('test/audit checks the logs of the integration and e2e tests: name some of those too (e.g. npm test -- test/integration)');
  process.exit(1);
}
const audits = needsStack ? allFiles.filter(isAudit) : [];
files.splice(0, files.length, ...files.filter((file) => !isAudit(file)));
// What the test processes log with, whatever the shared stack logs with.
const testLogLevel = process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN';

const run = (command: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
  spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', env }).status ?? 1;

if (filters.length === 0 && run('npx', ['tsc', '--noEmit']) !== 0) {
  console.error('type check failed');
  process.exit(1);
}

const { spawn } = await import('node:child_process');
// With a shared stack, every test process notes the secrets it sends and receives, for the audit.
const recorder = pathToFileURL(join(repoRoot, 'test/support/secret-recorder.ts')).href;
const nodeTest = (testFiles: string[], concurrency: number, env: NodeJS.ProcessEnv) =>
  new Promise<number>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', ...(env.URM_TEST_SECRETS ? ['--import', recorder] : []), '--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, '--test-timeout=300000', ...testFiles],
      {
        cwd: repoRoot,
        stdio: 'inherit',
        env: {
          ...process.env,
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          POWERTOOLS_LOG_LEVEL: testLogLevel,
          // Set by the stack for its own handlers (lib/local/invocation.ts); a test process has no InvokeStore.
          AWS_LAMBDA_MAX_CONCURRENCY: undefined,
          ...env,
        },
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
let capture: LogCapture | undefined;
let logDir: string | undefined;
let stackEnv: NodeJS.ProcessEnv = {};
if (needsStack) {
  logDir = mkdtempSync(join(tmpdir(), 'urm-test-logs-'));
  capture = captureProcessOutput(join(logDir, 'stack.log'));
  const log = capture.write;
  // Every level goes to the file, so the audit sees every line a handler can write.
  process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
  stack = await startTestStack({ log: (line) => (process.env.URM_TEST_VERBOSE ? console.error(`[stack] ${line}`) : log(`[stack] ${line}`)) });
  console.log(`local stack for the tests at ${stack.baseUrl}; its log: ${capture.file}`);
  stackEnv = {
    URM_TEST_STACK: JSON.stringify({ ...stack, stop: undefined }),
    URM_TEST_SECRETS: join(logDir, 'secrets-used.jsonl'),
  };
}

// The stack lives in this process, so the runner must not block it: run it asynchronously.
const status = files.length === 0 ? 0 : await nodeTest(files, 2, stackEnv);
const auditStatus = audits.length === 0 ? 0 : await nodeTest(audits, 1, { ...stackEnv, URM_TEST_LOG: capture!.file });

await stack?.stop();
capture?.stop();
const failed = status || aloneStatus || auditStatus;
if (logDir && failed) console.error(`the shared local stack's log, every level: ${capture!.file}`);
else if (logDir && !process.env.URM_TEST_KEEP_LOGS) rmSync(logDir, { recursive: true, force: true });
process.exit(failed);
