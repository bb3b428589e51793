/**
 * Imports point one way (docs/architecture.md, "Layout"): the rules in
 * .dependency-cruiser.cjs hold for the whole tree, and each rule catches what
 * it is for when a small tree breaks it on purpose.
 */
import { describe, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../support/local-stack';

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** depcruise over `paths` of the tree at `cwd`, with the project's rules: the violations it finds. */
async function violations(cwd: string, paths: string[]): Promise<Violation[]> {
  const run = await promisify(execFile)(
    process.execPath,
    [
      join(repoRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
      ...paths,
      '--config',
      join(cwd, '.dependency-cruiser.cjs'),
      '--output-type',
      'json',
    ],
    { cwd, maxBuffer: 64 * 1024 * 1024 },
  ).catch((failure: { stdout: string; stderr: string }) => failure);
  if (!run.stdout.startsWith('{')) throw new Error(`depcruise did not answer: ${run.stderr}`);
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const brief = (found: Violation[]) => found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);

test('the project breaks none of its import rules', async () => {
  expect(brief(await violations(repoRoot, ['bin', 'lib', 'functions', 'web-sdk', 'test']))).toEqual([]);
});

describe('the import rules catch', () => {
  let tree: string;
  /** A tree with the project's rules and tsconfig, and these files (path → source). */
  const plant = (files: Record<string, string>) => {
    tree = mkdtempSync(join(tmpdir(), 'urm-deps-'));
    copyFileSync(join(repoRoot, '.dependency-cruiser.cjs'), join(tree, '.dependency-cruiser.cjs'));
    writeFileSync(join(tree, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', strict: true } }));
    for (const [path, source] of Object.entries(files)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), source);
    }
    return tree;
  };
  const ruleNames = async (files: Record<string, string>) => {
    try {
      return [
        ...new Set(
          (
            await violations(
              plant(files),
              ['bin', 'lib', 'functions', 'web-sdk', 'test'].filter((dir) => Object.keys(files).some((path) => path.startsWith(`${dir}/`))),
            )
          ).map((v) => v.rule.name),
        ),
      ];
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  };

  test('a handler that imports lib/', async () => {
    const found = await ruleNames({
      'functions/api/get-profile/handler.ts': "import { stack } from '../../../lib/aws/stack';\nexport const handler = stack;\n",
      'lib/aws/stack.ts': 'export const stack = 1;\n',
    });

    expect(found).toEqual(['functions-only-functions']);
  });

  test('an operation that imports another operation', async () => {
    const found = await ruleNames({
      'functions/api/list-profile-events/handler.ts': "import { profileIdOf } from '../get-profile/core';\nexport const handler = profileIdOf;\n",
      'functions/api/get-profile/core.ts': 'export const profileIdOf = 1;\n',
    });

    expect(found).toEqual(['no-operation-to-operation']);
  });

  test('a console route that imports an integrator operation', async () => {
    const found = await ruleNames({
      'functions/console/routes/players.ts': "import { profileIdOf } from '../../api/get-profile/core';\nexport const routes = profileIdOf;\n",
      'functions/api/get-profile/core.ts': 'export const profileIdOf = 1;\n',
    });

    expect(found).toEqual(['no-ui-to-other-entry']);
  });

  test('shared code that imports an entry point', async () => {
    const found = await ruleNames({
      'functions/back-office/players.ts': "import { routes } from '../console/routes/players';\nexport const players = routes;\n",
      'functions/console/routes/players.ts': 'export const routes = 1;\n',
    });

    expect(found).toEqual(['shared-not-to-entry']);
  });

  test('a cycle', async () => {
    const found = await ruleNames({
      'functions/domain/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'functions/domain/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    });

    expect(found).toEqual(['no-circular']);
  });

  test('browser SDK code taken from the service, while a type is allowed', async () => {
    const found = await ruleNames({
      'web-sdk/src/page/index.ts':
        "import type { Payload } from '../../../functions/domain/push';\nimport { limit } from '../../../functions/domain/limits';\nexport const page = (p: Payload) => [p, limit];\n",
      'functions/domain/push.ts': 'export interface Payload { title: string }\n',
      'functions/domain/limits.ts': 'export const limit = 1;\n',
    });

    expect(found).toEqual(['web-sdk-only-types-from-service']);
  });

  test('shared UI code that takes Node or server code, while a type is allowed', async () => {
    const found = await ruleNames({
      'functions/ui/chart.ts':
        "import { createHash } from 'node:crypto';\nimport type { Report } from '../domain/report';\nimport { limit } from '../domain/limits';\nexport const chart = (r: Report) => [createHash, r, limit];\n",
      'functions/domain/report.ts': 'export interface Report { days: number }\n',
      'functions/domain/limits.ts': 'export const limit = 1;\n',
    });

    expect(found).toEqual(['ui-runs-in-the-browser-too']);
  });

  test("console front-end code taken from the server, while an answer's type is allowed", async () => {
    const found = await ruleNames({
      'functions/console/ui/pages/keys.ts':
        "import type { KeysAnswer } from '../../settings/routes';\nimport { keyView } from '../../../back-office/keys';\nexport const page = (a: KeysAnswer) => [a, keyView];\n",
      'functions/console/settings/routes.ts': 'export interface KeysAnswer { keys: string[] }\n',
      'functions/back-office/keys.ts': 'export const keyView = 1;\n',
    });

    expect(found).toEqual(['console-ui-only-types-from-server']);
  });

  test("server code that imports the console's front end", async () => {
    const found = await ruleNames({
      'functions/console/handler.ts': "import { formatMoney } from './ui/format';\nexport const handler = formatMoney;\n",
      'functions/console/ui/format.ts': 'export const formatMoney = 1;\n',
    });

    expect(found).toEqual(['no-server-to-console-ui']);
  });

  test('lib or shipped code importing test support', async () => {
    const found = await ruleNames({
      'lib/local/stack.ts': "import { helper } from '../../test/support/helper';\nexport const stack = helper;\n",
      'test/support/helper.ts': 'export const helper = 1;\n',
    });

    expect(found.sort()).toEqual(['lib-not-to-bin-or-test', 'only-test-imports-test']);
  });
});
