/**
 * A function's code: its handler bundled by esbuild into `index.mjs` (+ source map), staged in
 * cdk.out under a hash of what the bundle is made of, so a synth whose inputs did not change
 * reuses the staged bundle instead of building it again.
 *
 * Why not NodejsFunction's own bundling: it hashes each bundle's output, so it must bundle on
 * every synth; and its custom `assetHash` mixes in the checkout's absolute path and the log
 * level, so the same code would get a new S3 key on another machine or in a verbose synth.
 *
 * The hash covers: the project files esbuild reaches from the entry (import graph, contents),
 * package-lock.json and package.json (every package's version), tsconfig.json, the esbuild
 * version, the bundle options and what precompiles the validators. Nothing else goes into a bundle.
 *
 * Request validators come precompiled (precompiled-validators.ts): `#schema-validators` is the
 * generated module in a bundle, so no schema compiles at cold start and no ajv compiler is bundled.
 */
import { AssetHashType, DockerImage, Stack, type AssetOptions } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import { buildSync, version as esbuildVersion, type BuildOptions, type LogLevel } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { precompiledValidatorsModule, validatorBuildFiles, validatorsSpecifier } from './precompiled-validators';

/** The esbuild settings every function shares (NodejsFunction's names, so they read as before). */
export type BundleOptions = Required<Pick<BundlingOptions, 'format' | 'minify' | 'sourceMap' | 'target' | 'mainFields' | 'externalModules' | 'banner'>>;

/** What a bundle takes for the SDK's default credential chain. */
export const lambdaCredentials = 'functions/adapters/clients/lambda-credentials.ts';

/** The file the bundle is written to, and the Lambda handler in it. */
export const bundleFile = 'index.mjs';
export const bundleHandler = 'index.handler';

/** Context key (`-c urm:verboseSynth=1`) or environment variable (`URM_VERBOSE_SYNTH=1`) that shows esbuild's report for each bundle built. */
export const verboseSynthContext = 'urm:verboseSynth';
export const verboseSynthEnv = 'URM_VERBOSE_SYNTH';

const truthy = (value: unknown) => value !== undefined && !['', '0', 'false'].includes(String(value).toLowerCase());

/** Quiet by default: esbuild speaks only of warnings and errors unless a verbose synth is asked for. */
export function bundleLogLevel(scope: Construct): LogLevel {
  return truthy(scope.node.tryGetContext(verboseSynthContext)) || truthy(process.env[verboseSynthEnv]) ? 'info' : 'warning';
}

/** esbuild's options for the bundle of the handler at `entry` (relative to `root`), less where it goes and how loudly. */
export function esbuildOptions(root: string, entry: string, options: BundleOptions): BuildOptions {
  const base = sourceOptions(root, entry, options);
  const validators = precompiledValidatorsModule(root, base);
  return validators ? { ...base, alias: { ...base.alias, [validatorsSpecifier]: validators } } : base;
}

/** The same, with the validators as the TypeScript runs them (compiled by ajv in the process): the bundle's own files. */
function sourceOptions(root: string, entry: string, options: BundleOptions): BuildOptions {
  if (options.format !== OutputFormat.ESM) throw new Error(`function bundles are ES modules (${bundleFile}); format ${options.format} is not supported`);
  return {
    absWorkingDir: root,
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: options.target,
    mainFields: options.mainFields,
    external: options.externalModules,
    minify: options.minify,
    sourcemap: options.sourceMap,
    banner: { js: options.banner },
    // A function's credentials are always in its environment: the SDK's default chain shrinks to that step (the module says why).
    alias: { '@aws-sdk/credential-provider-node': join(root, lambdaCredentials) },
  };
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The hash of everything the bundle of `entry` is made of. Packages count through the lock file,
 * so esbuild walks only the project's own files here (packages external), which takes milliseconds.
 */
export function bundleInputHash(root: string, entry: string, options: BundleOptions): string {
  const graph = buildSync({
    ...sourceOptions(root, entry, options),
    packages: 'external',
    write: false,
    metafile: true,
    minify: false,
    sourcemap: false,
    logLevel: 'silent',
  });
  const ownFiles = Object.keys(graph.metafile.inputs)
    .filter((file) => !file.split('/').includes('node_modules'))
    .sort();
  const hash = createHash('sha256').update(JSON.stringify({ scheme: 2, esbuild: esbuildVersion, entry, options }));
  for (const file of [...ownFiles, 'package-lock.json', 'package.json', 'tsconfig.json']) {
    hash.update(`\0${file}\0${sha256(readFileSync(join(root, file)))}`);
  }
  for (const [i, file] of validatorBuildFiles.entries()) hash.update(`\0validator build ${i}\0${sha256(readFileSync(file))}`);
  return hash.digest('hex');
}

/**
 * How the asset of the handler at `entry` (relative to `root`) is hashed and bundled: what the
 * function's code is staged from, by synth and by the local stack's `--bundled` mode alike.
 */
export function bundleAssetOptions(scope: Construct, root: string, entry: string, options: BundleOptions): AssetOptions {
  // A synth that bundles nothing (cdk list, `aws:cdk:bundling-stacks` excluding this stack) needs no real hash.
  const assetHash = Stack.of(scope).bundlingRequired ? bundleInputHash(root, entry, options) : sha256(entry);
  const logLevel = bundleLogLevel(scope);
  return {
    assetHash,
    assetHashType: AssetHashType.CUSTOM,
    bundling: {
      // Never pulled: bundling is always local. Also what CDK mixes into the asset hash, so it says what builds the bundle.
      image: DockerImage.fromRegistry(`local-esbuild-${esbuildVersion}`),
      local: {
        tryBundle(outputDir: string) {
          buildSync({ ...esbuildOptions(root, entry, options), outfile: join(outputDir, bundleFile), logLevel });
          return true;
        },
      },
    },
  };
}

/** The bundled code of the handler at `entry` (relative to `root`). */
export function bundledCode(scope: Construct, root: string, entry: string, options: BundleOptions): Code {
  return Code.fromAsset(root, bundleAssetOptions(scope, root, entry, options));
}
