import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { Stack } from 'aws-cdk-lib';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleInputHash, bundleLogLevel, verboseSynthEnv } from '../../lib/aws/constructs/function-code';
import { bundleOptions } from '../../lib/aws/constructs/function-defaults';
import { testApp } from '../support/cdk';

let project: string;
const write = (file: string, text: string) => writeFileSync(join(project, file), text);

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'urm-function-code-'));
  write('package.json', '{"type":"module"}');
  write('package-lock.json', '{"lockfileVersion":3,"packages":{}}');
  write('tsconfig.json', '{}');
  write('handler.ts', "import { rule } from './rule';\nimport pRetry from 'p-retry';\nexport const handler = async () => [rule, pRetry];\n");
  write('rule.ts', 'export const rule = 1;\n');
  write('unrelated.ts', 'export const other = 1;\n');
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const hash = () => bundleInputHash(project, 'handler.ts', bundleOptions);

describe('the hash a bundle is staged under', () => {
  test('changes when a file the handler imports changes', () => {
    const before = hash();
    write('rule.ts', 'export const rule = 2;\n');
    expect(hash()).not.toBe(before);
  });

  test('changes when the lock file changes, since packages are bundled from it', () => {
    const before = hash();
    write('package-lock.json', '{"lockfileVersion":3,"packages":{"node_modules/p-retry":{"version":"9.9.9"}}}');
    expect(hash()).not.toBe(before);
  });

  test('changes when a bundle option changes', () => {
    expect(bundleInputHash(project, 'handler.ts', { ...bundleOptions, minify: false })).not.toBe(hash());
  });

  test('stays the same when only a file the handler does not import changes', () => {
    const before = hash();
    write('unrelated.ts', 'export const other = 2;\n');
    expect(hash()).toBe(before);
  });

  test('does not depend on where the project is checked out', () => {
    const copy = mkdtempSync(join(tmpdir(), 'urm-function-code-copy-'));
    try {
      for (const file of ['package.json', 'package-lock.json', 'tsconfig.json', 'handler.ts', 'rule.ts']) {
        writeFileSync(join(copy, file), readFileSync(join(project, file)));
      }
      expect(bundleInputHash(copy, 'handler.ts', bundleOptions)).toBe(hash());
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('esbuild during synth', () => {
  const saved = process.env[verboseSynthEnv];
  afterEach(() => {
    if (saved === undefined) delete process.env[verboseSynthEnv];
    else process.env[verboseSynthEnv] = saved;
  });

  test('reports only warnings and errors by default', () => {
    delete process.env[verboseSynthEnv];
    expect(bundleLogLevel(new Stack(testApp({ bundle: false }), 'Quiet'))).toBe('warning');
  });

  test(`reports every bundle with ${verboseSynthEnv}=1 or -c urm:verboseSynth=1`, () => {
    delete process.env[verboseSynthEnv];
    expect(bundleLogLevel(new Stack(testApp({ bundle: false, context: { 'urm:verboseSynth': '1' } }), 'ByContext'))).toBe('info');
    process.env[verboseSynthEnv] = '1';
    expect(bundleLogLevel(new Stack(testApp({ bundle: false }), 'ByEnv'))).toBe('info');
  });
});
