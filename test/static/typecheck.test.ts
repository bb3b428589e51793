import { expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot } from '../support/local-stack';

// jest runs TypeScript through swc, which strips types without checking them: the compiler checks them here.
test('the whole project type-checks', async () => {
  const run = await promisify(execFile)(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '--pretty', 'false'], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((failure: { stdout: string; stderr: string }) => failure);

  expect(`${run.stdout}${run.stderr}`.trim()).toBe('');
});
