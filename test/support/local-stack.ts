/**
 * The local stack the integration tests talk to over HTTP. `npm test`
 * starts one for the whole run (test/support/jest/stack-setup.js) and passes
 * it on in URM_TEST_STACK; a test file run without it starts its own.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { DevConfig } from '../../lib/local/demo-app';
import type { LocalEndpoints } from '../../lib/local/stack';
import { freePort } from './ports';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * `npm run admin -- --data-dir <dir> --json …` as an operator runs it against a stack's data: its standard
 * output. A failed command rejects with the child's `code`, `stdout` and `stderr`. Asynchronous on purpose: an
 * event loop blocked by a synchronous child misses the server closing an idle keep-alive socket, and the test's
 * next request fails on that socket.
 */
export async function adminCli(dataDir: string, args: string[], options: { env?: NodeJS.ProcessEnv; timeout?: number } = {}): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['bin/admin.mjs', '--data-dir', dataDir, '--json', ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...options.env },
    timeout: options.timeout ?? 120_000,
  });
  return stdout;
}

export interface TestStack {
  baseUrl: string;
  dev: DevConfig;
  endpoints: LocalEndpoints;
  dataDir: string;
  onFailureFile: string;
}

export interface StartedTestStack extends TestStack {
  stop(): Promise<void>;
}

/** `log`: where the stack's own messages (poller, server) go; by default the console, with URM_TEST_VERBOSE only. */
export async function startTestStack(options: { log?: (line: string) => void } = {}): Promise<StartedTestStack> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  const { startLocalStack } = await import('../../lib/local/stack');
  const dataDir = mkdtempSync(join(tmpdir(), 'urm-test-'));
  const [port, dynamoPort, kinesisPort, sesPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const host = '127.0.0.1';
  const stack = await startLocalStack({
    root: repoRoot,
    dataDir,
    host,
    port,
    dynamoPort,
    kinesisPort,
    sesPort,
    region: 'us-east-1',
    log: options.log ?? ((line) => process.env.URM_TEST_VERBOSE && console.error(`[stack] ${line}`)),
    pollIntervalMs: 50,
  });
  return {
    baseUrl: stack.baseUrl,
    dev: stack.dev,
    dataDir,
    onFailureFile: stack.onFailureFile,
    endpoints: {
      base_url: stack.baseUrl,
      dynamodb_endpoint: `http://${host}:${dynamoPort}`,
      kinesis_endpoint: `http://${host}:${kinesisPort}`,
      region: 'us-east-1',
    },
    async stop() {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let shared: Promise<TestStack> | undefined;

/** The run's stack, or one started for this file (stopped when the process exits). */
export function testStack(): Promise<TestStack> {
  shared ??= (async () => {
    if (process.env.URM_TEST_STACK) return JSON.parse(process.env.URM_TEST_STACK) as TestStack;
    const started = await startTestStack();
    process.once('beforeExit', () => void started.stop());
    return started;
  })();
  return shared;
}
