import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import type { FunctionDefinition } from '../../functions/manifest/operations';
import { bundledCode, bundleFile, bundleHandler } from '../../lib/aws/constructs/function-code';
import { bundleOptions } from '../../lib/aws/constructs/function-defaults';
import { bundledHandlers, cloudAssemblyDir, stageBundles, taskDir } from '../../lib/local/bundles';
import { testApp } from '../support/cdk';

let project: string;
let tasks: string;
const write = (file: string, text: string) => writeFileSync(join(project, file), text);
const own = { id: 'Own', entry: 'own.ts' } as FunctionDefinition;

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'urm-local-bundles-'));
  tasks = mkdtempSync(join(tmpdir(), 'urm-local-tasks-'));
  write('package.json', '{"type":"module"}');
  write('package-lock.json', '{"lockfileVersion":3,"packages":{}}');
  write('tsconfig.json', '{}');
  write('own.ts', "import { rule } from './rule';\nexport const handler = async () => ({ rule });\n");
  write('rule.ts', 'export const rule = 41 + 1;\n');
});
afterEach(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(tasks, { recursive: true, force: true });
});

/** The asset directory `cdk synth` gives the function of `entry`, in the project's cdk.out. */
function synthAssetPath(entry: string): string {
  const app = testApp({ outdir: join(project, cloudAssemblyDir), context: { 'aws:cdk:enable-asset-metadata': true } });
  const stack = new Stack(app, 'Synth');
  new LambdaFunction(stack, 'OwnFunction', { runtime: Runtime.NODEJS_24_X, handler: bundleHandler, code: bundledCode(stack, project, entry, bundleOptions) });
  const [fn] = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function'));
  return fn!.Metadata['aws:asset:path'] as string;
}

describe('the bundles of npm start -- --bundled', () => {
  test('are staged where cdk synth stages them, so each reuses what the other built', () => {
    const staged = stageBundles(project, [own]).get(own.entry)!;

    expect(relative(project, staged)).toBe(join(cloudAssemblyDir, basename(staged)));
    expect(readdirSync(staged)).toContain(bundleFile);
    expect(synthAssetPath(own.entry)).toBe(basename(staged));
  });

  test('follow the sources: a changed import is a new bundle', () => {
    const before = stageBundles(project, [own]).get(own.entry);
    write('rule.ts', 'export const rule = 7;\n');

    expect(stageBundles(project, [own]).get(own.entry)).not.toBe(before);
  });

  test('are loaded from a copy outside the project, named by the bundle', () => {
    const staged = stageBundles(project, [own]).get(own.entry)!;

    const copy = taskDir(staged, tasks);

    expect(copy).toBe(join(tasks, basename(staged)));
    expect(relative(project, copy).startsWith('..')).toBe(true);
    expect(existsSync(join(copy, bundleFile))).toBe(true);
    expect(taskDir(staged, tasks)).toBe(copy);
  });

  test("run the bundle's handler", async () => {
    const load = bundledHandlers(project, [own]);

    const handler = (await load(own)) as () => Promise<unknown>;

    expect(await handler()).toEqual({ rule: 42 });
  });
});
