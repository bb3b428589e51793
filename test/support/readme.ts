/**
 * The README's examples as a reader runs them: the shell block that follows
 * `<!-- readme-test: name -->`, pasted into bash in a checkout whose
 * .urm/dev.json is the test stack's (as after `npm start`), only pointed at
 * the test stack's port. Asynchronous on purpose (as adminCli): an event loop
 * blocked by a synchronous child misses the servers closing idle kept-alive
 * sockets, and the test's next request fails on one.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from '@jest/globals';
import { repoRoot, type TestStack } from './local-stack';

/** The shell block that follows `<!-- readme-test: name -->` in the README. */
export function readmeBlock(name: string): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const match = new RegExp(`<!-- readme-test: ${name} -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(readme);
  expect(match).toBeTruthy();
  return match![1];
}

/** The first lines of the events example, which set APP_ID and SERVER_KEY from .urm/dev.json; the other examples start from them. */
export const readmeVariables = () => readmeBlock('events').split('\n').slice(0, 2).join('\n');

export const runProcess = promisify(execFile);

export interface ReadmeCheckout {
  cwd: string;
  /** Runs `script` as pasted (bash -euo pipefail), pointed at the test stack; its output's lines. */
  run(script: string): Promise<string[]>;
  remove(): void;
}

export function readmeCheckout(stack: TestStack, prefix: string): ReadmeCheckout {
  const cwd = mkdtempSync(join(tmpdir(), `urm-readme-${prefix}-`));
  mkdirSync(join(cwd, '.urm'));
  writeFileSync(join(cwd, '.urm', 'dev.json'), JSON.stringify(stack.dev));
  return {
    cwd,
    async run(script) {
      const pointed = script.replaceAll('http://127.0.0.1:3000', stack.baseUrl);
      // The shared stack's mail store holds every suite's mail (a broadcast's thousand among them): room for all of it.
      const { stdout } = await runProcess('bash', ['-euo', 'pipefail', '-c', pointed], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      return stdout.trim().split('\n');
    },
    remove: () => rmSync(cwd, { recursive: true, force: true }),
  };
}
