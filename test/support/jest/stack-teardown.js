/**
 * globalTeardown of the shared-stack projects: stops the stack once. Its log
 * is kept when a test failed (the path is printed) or URM_TEST_KEEP_LOGS is
 * set, and removed otherwise: it holds the secrets the tests used.
 */
import { rmSync } from 'node:fs';

export default async function stopSharedStack() {
  const shared = globalThis.__urmSharedStack;
  if (!shared || shared.stopped) return;
  shared.stopped = true;
  shared.child.kill('SIGTERM');
  const timeout = setTimeout(() => shared.child.kill('SIGKILL'), 30_000);
  await shared.exited;
  clearTimeout(timeout);
  if (globalThis.__urmTestRunFailed) console.error(`the shared local stack's log, every level: ${shared.files.URM_TEST_LOG}`);
  else if (!process.env.URM_TEST_KEEP_LOGS) rmSync(shared.logDir, { recursive: true, force: true });
}
