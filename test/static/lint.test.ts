import { expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../support/local-stack';

const biome = join(repoRoot, 'node_modules/@biomejs/biome/bin/biome');

/** Biome's verdict on a tree: its exit code and what it printed. */
async function biomeCi(cwd: string, ...paths: string[]): Promise<{ code: number; output: string }> {
  const run = await promisify(execFile)(process.execPath, [biome, 'ci', '--colors=off', ...paths], { cwd, maxBuffer: 16 * 1024 * 1024 }).then(
    (done) => ({ code: 0, output: `${done.stdout}${done.stderr}` }),
    (failure: { code: number; stdout: string; stderr: string }) => ({ code: failure.code, output: `${failure.stdout}${failure.stderr}` }),
  );
  return run;
}

// `npm run lint` (biome.jsonc): the formatter's layout and the linter's rules, on every file git tracks.
test('the whole project is formatted and passes the linter', async () => {
  const { code, output } = await biomeCi(repoRoot, '.');

  expect(code === 0 ? '' : output).toBe('');
});

test('the check fails on a file that is not formatted and on one that breaks a rule', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'urm-lint-'));
  try {
    cpSync(join(repoRoot, 'biome.jsonc'), join(dir, 'biome.jsonc'));
    // A repository of its own, as biome.jsonc reads .gitignore through git.
    await promisify(execFile)('git', ['init', '-q'], { cwd: dir });
    writeFileSync(join(dir, '.gitignore'), '');
    writeFileSync(join(dir, 'unformatted.ts'), 'export const answer   =  {a:1}\n');
    writeFileSync(
      join(dir, 'rule.ts'),
      'export function count(items: number[]) {\n  let total;\n  for (const item of items) total = item;\n  return total;\n}\n',
    );

    const formatting = await biomeCi(dir, 'unformatted.ts');
    const rules = await biomeCi(dir, 'rule.ts');

    expect(formatting.code).not.toBe(0);
    expect(formatting.output).toContain('format');
    expect(rules.code).not.toBe(0);
    expect(rules.output).toContain('noImplicitAnyLet');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
