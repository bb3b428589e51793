/**
 * `npm start -- --bundled`: the local stack runs each function's bundle as `cdk synth` stages it,
 * not its TypeScript source. The bundles are staged by CDK itself, through the same asset
 * (lib/aws/constructs/function-code.ts: content hash, esbuild options, file name) that synth gives
 * each Lambda function, into the same cloud assembly directory (cdk.out): a bundle a synth staged is
 * reused here, and one staged here is reused by the next synth. An esbuild or ESM problem that only
 * the bundle has (a package that breaks when bundled, `__dirname` in an ES module, a wrong external)
 * then fails locally, not in AWS.
 */
import { App, AssetStaging, Stack } from 'aws-cdk-lib';
import { join } from 'node:path';
import type { FunctionDefinition } from '../../functions/shared/manifest/operations';
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

/** Each function's bundle (index.mjs in its staged directory), as Lambda loads it. */
export function bundledHandlers(root: string, definitions: FunctionDefinition[]): HandlerLoader {
  const staged = stageBundles(root, definitions);
  return (definition) => {
    const dir = staged.get(definition.entry);
    if (!dir) throw new Error(`no bundle was staged for ${definition.id} (${definition.entry})`);
    return importHandler(join(dir, bundleFile), handlerExport);
  };
}
