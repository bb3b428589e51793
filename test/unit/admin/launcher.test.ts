/**
 * bin/admin.mjs, the launcher of `npm run admin`, runs a bundle compiled from bin/admin.ts and rebuilds it
 * when a file it was made of changes. Run on a copy of the command line's sources (node_modules linked
 * package by package, so the copy's bundle cache is its own), where a test may change a file.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { repoRoot } from '../../support/local-stack';

let copy: string;

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'urm-admin-launcher-'));
  for (const dir of ['bin', 'lib', 'functions', 'web-sdk']) {
    cpSync(join(repoRoot, dir), join(copy, dir), { recursive: true, filter: (source) => !/\/(dist|node_modules)$/.test(source) });
  }
  for (const file of ['package.json', 'package-lock.json', 'tsconfig.json']) cpSync(join(repoRoot, file), join(copy, file));
  mkdirSync(join(copy, 'node_modules'));
  for (const name of readdirSync(join(repoRoot, 'node_modules')).filter((entry) => entry !== '.cache')) {
    symlinkSync(join(repoRoot, 'node_modules', name), join(copy, 'node_modules', name));
  }
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

async function admin(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [join(copy, 'bin/admin.mjs'), ...args], { cwd: copy, encoding: 'utf8', timeout: 120_000 });
  return stdout;
}

function bundle(): { file: string; builtAt: number } {
  const [dir] = readdirSync(join(copy, 'node_modules/.cache/urm-admin'));
  const file = join(copy, 'node_modules/.cache/urm-admin', dir, 'admin.mjs');
  return { file, builtAt: statSync(file).mtimeMs };
}

function edit(file: string, change: (source: string) => string): void {
  const path = join(copy, file);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
}

describe('the admin launcher', () => {
  test('builds the command line on first use, and runs that build again while no source changed', async () => {
    const first = await admin('--help');
    const built = bundle();
    const second = await admin('--help');

    expect(first).toContain('urm back office');
    expect(second).toBe(first);
    expect(bundle().builtAt).toBe(built.builtAt);
  });

  test('rebuilds when the entry changes, and runs the new code', async () => {
    edit('bin/admin.ts', (source) => source.replace("'urm back office:", "'urm back office (edited):"));

    const help = await admin('--help');

    expect(help).toContain('urm back office (edited):');
  });

  test('rebuilds when a module it imports changes, however deep', async () => {
    const before = bundle();
    edit('functions/domain/enterprise.ts', (source) =>
      source.replace("export const roles = ['admin', 'marketer', 'viewer']", "export const roles = ['admin', 'marketer', 'viewer', 'auditor']"),
    );

    const help = await admin('portal', 'role', '--help');

    expect(bundle().builtAt).toBeGreaterThan(before.builtAt);
    expect(help).toContain('"auditor"');
  });
});
