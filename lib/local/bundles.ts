/**
 * `npm start -- --bundled`: the local stack runs each function's bundle as `cdk synth` stages it,
 * not its TypeScript source. The bundles are staged by CDK itself, through the same asset
 * (lib/aws/constructs/function-code.ts: content hash, esbuild options, file name) that synth gives
 * each Lambda function, into the same cloud assembly directory (cdk.out): a bundle a synth staged is
 * reused here, and one staged here is reused by the next synth. Each is loaded from a copy outside
 * the repository, as Lambda loads it from /var/task. An esbuild or ESM problem that only
 * the bundle has (a package that breaks when bundled, `__dirname` in an ES module, a wrong external)
 * then fails locally, not in AWS.
 */
import { App, AssetStaging, Stack } from 'aws-cdk-lib';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { FunctionDefinition } from '../../functions/manifest/operations';
import { bundleAssetOptions, bundleFile, bundleHandler } from '../aws/constructs/function-code';
import { bundleOptions } from '../aws/constructs/function-defaults';
import { importHandler, type HandlerLoader } from './handlers';

/** Where `cdk synth` writes its cloud assembly (cdk.json has no `output`, so the CDK's default). */
export const cloudAssemblyDir = 'cdk.out';

/** The export Lambda calls: `index.handler` → `handler`. */
const handlerExport = bundleHandler.slice(bundleHandler.lastIndexOf('.') + 1);

/**
 * The staged bundle directory of each function, bundling those not staged yet (esbuild, in this
 * process; cached by content hash, so unchanged sources cost a hash each).
 */
export function stageBundles(root: string, definitions: FunctionDefinition[]): Map<string, string> {
  const app = new App({ outdir: join(root, cloudAssemblyDir) });
  const stack = new Stack(app, 'LocalBundles');
  const staged = new Map<string, string>();
  for (const definition of definitions) {
    if (staged.has(definition.entry)) continue;
    const asset = new AssetStaging(stack, `${definition.id}Code`, { sourcePath: root, ...bundleAssetOptions(stack, root, definition.entry, bundleOptions) });
    staged.set(definition.entry, asset.absoluteStagedPath);
  }
  return staged;
}

/**
 * Where a staged bundle is loaded from: a copy outside the repository, as Lambda's /var/task has no
 * node_modules around it. Loaded from cdk.out, a package the bundle wrongly leaves external would
 * still resolve from the repository's node_modules. Named by the asset's content hash, so a copy is
 * made once and never changes.
 */
export function taskDir(stagedDir: string, under = join(tmpdir(), 'urm-lambda-task')): string {
  const target = join(under, basename(stagedDir));
  if (existsSync(target)) return target;
  mkdirSync(under, { recursive: true });
  const partial = `${target}.${process.pid}-partial`;
  cpSync(stagedDir, partial, { recursive: true });
  try {
    renameSync(partial, target);
  } catch (error) {
    // Another stack copied the same bundle meanwhile: theirs is the same bytes.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(target)) throw error;
  }
  return target;
}

/** Each function's bundle (index.mjs of its staged asset), loaded as Lambda loads it. */
export function bundledHandlers(root: string, definitions: FunctionDefinition[]): HandlerLoader {
  const staged = stageBundles(root, definitions);
  return (definition) => {
    const dir = staged.get(definition.entry);
    if (!dir) throw new Error(`no bundle was staged for ${definition.id} (${definition.entry})`);
    return importHandler(join(taskDir(dir), bundleFile), handlerExport);
  };
}
