/**
 * globalSetup of the projects that talk to the shared local stack
 * (integration, e2e, audit): starts it once for the whole run, as a process of
 * its own (stack-process.ts), and tells every test process where it is through
 * the environment the workers inherit: URM_TEST_STACK (endpoints, demo keys),
 * URM_TEST_LOG (everything the stack logged) and URM_TEST_SECRETS (the secrets
 * the tests sent and received, noted by test/support/secret-recorder.ts).
 * Each of those projects names this file; the stack starts only once.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const STARTUP_MS = 180_000;

/** The shared stack's timeline step (the service's default is 2,000 entries): a test's few hundred seeded entries take several steps. */
const TEST_TIMELINE_STEP_ITEMS = 150;

export default async function startSharedStack() {
  if (globalThis.__urmSharedStack) return;
  const logDir = mkdtempSync(join(tmpdir(), 'urm-test-logs-'));
  const files = {
    URM_TEST_LOG: join(logDir, 'stack.log'),
    URM_TEST_SECRETS: join(logDir, 'secrets-used.jsonl'),
    URM_TEST_STACK_FILE: join(logDir, 'stack.json'),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/jest/stack-process.ts'], {
    cwd: root,
    env: { ...process.env, ...files, POWERTOOLS_LOG_LEVEL: 'DEBUG', TIMELINE_STEP_ITEMS: String(TEST_TIMELINE_STEP_ITEMS) },
    // stdin stays open for as long as this process lives: the stack stops when it closes (stack-process.ts).
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  const exited = new Promise((done) => child.once('exit', (code, signal) => done(signal ?? code)));
  globalThis.__urmSharedStack = { child, exited, logDir, files };

  const deadline = Date.now() + STARTUP_MS;
  let gone;
  void exited.then((how) => (gone = how));
  while (!existsSync(files.URM_TEST_STACK_FILE)) {
    if (gone !== undefined) throw new Error(`the shared local stack exited (${gone}) before it was up; its log: ${files.URM_TEST_LOG}`);
    if (Date.now() > deadline) throw new Error(`the shared local stack was not up within ${STARTUP_MS / 1000} s; its log: ${files.URM_TEST_LOG}`);
    await new Promise((done) => setTimeout(done, 100));
  }
  const stack = readFileSync(files.URM_TEST_STACK_FILE, 'utf8');
  Object.assign(process.env, { URM_TEST_STACK: stack, URM_TEST_LOG: files.URM_TEST_LOG, URM_TEST_SECRETS: files.URM_TEST_SECRETS });
  console.log(`\nlocal stack for the tests at ${JSON.parse(stack).baseUrl}; its log: ${files.URM_TEST_LOG}`);
}
