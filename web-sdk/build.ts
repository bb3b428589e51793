/**
 * Builds the browser push client into web-sdk/dist (esbuild, no runtime
 * dependencies):
 *
 *   urm-notification.js            the page script, an IIFE exposing window.urmNotification
 *   urm-notification.<version>.js  the same, under a name that never changes content
 *   urmSDKWorker.js                the service worker
 *   *.map                          their source maps
 *
 * It prints each script's gzipped size and fails when one is over its budget
 * (the page script 6 KB, the worker 4 KB, gzipped). `npm run build:sdk` runs
 * it; `npm start`, `npm test` and `cdk synth` build when dist is missing or
 * older than the sources (ensureSdkBuilt).
 */
import { buildSync, type BuildOptions } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const sdkRoot = dirname(fileURLToPath(import.meta.url));
export const distDir = join(sdkRoot, 'dist');
const packageJson = resolve(sdkRoot, '..', 'package.json');

export const PAGE_SCRIPT = 'urm-notification.js';
export const WORKER_SCRIPT = 'urmSDKWorker.js';
/** Gzipped bytes each script may take at most. */
export const budgets = { page: 6 * 1024, worker: 4 * 1024 } as const;

export interface BuiltScript {
  file: string;
  bytes: number;
  gzipBytes: number;
  budgetBytes: number;
}

export class SdkBudgetError extends Error {}

export function sdkVersion(): string {
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

export function versionedPageScript(version = sdkVersion()): string {
  return `urm-notification.${version}.js`;
}

/** Every file a build writes. */
export function sdkFiles(version = sdkVersion()): string[] {
  return [PAGE_SCRIPT, versionedPageScript(version), WORKER_SCRIPT].flatMap((file) => [file, `${file}.map`]);
}

const common: BuildOptions = {
  bundle: true,
  format: 'iife',
  platform: 'browser',
  // Browsers with service workers, push and optional chaining: Chrome 80, Firefox 74, Safari 16.4.
  target: ['es2020'],
  minify: true,
  sourcemap: 'linked',
  sourcesContent: true,
  legalComments: 'none',
  write: false,
  logLevel: 'silent',
};

/** Writes beside the file, then renames: a reader never sees half a file, even while another build runs. */
function writeAtomically(path: string, contents: Uint8Array): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

function bundle(entry: string, outfile: string, version: string): void {
  const result = buildSync({
    ...common,
    entryPoints: [join(sdkRoot, 'src', entry)],
    outfile: join(distDir, outfile),
    define: { __URM_SDK_VERSION__: JSON.stringify(version) },
  });
  for (const output of result.outputFiles ?? []) writeAtomically(output.path, output.contents);
}

function measure(file: string, budgetBytes: number): BuiltScript {
  const contents = readFileSync(join(distDir, file));
  return { file, bytes: contents.length, gzipBytes: gzipSync(contents, { level: 9 }).length, budgetBytes };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Builds every file, prints the sizes, and throws SdkBudgetError when a script is over budget. */
export function buildSdk(log: (line: string) => void = console.log, limits: { page: number; worker: number } = budgets): BuiltScript[] {
  const version = sdkVersion();
  mkdirSync(distDir, { recursive: true });
  bundle('page/index.ts', PAGE_SCRIPT, version);
  bundle('page/index.ts', versionedPageScript(version), version);
  bundle('worker/index.ts', WORKER_SCRIPT, version);

  const scripts = [measure(PAGE_SCRIPT, limits.page), measure(versionedPageScript(version), limits.page), measure(WORKER_SCRIPT, limits.worker)];
  for (const script of scripts) {
    log(`web-sdk: ${script.file.padEnd(28)} ${kb(script.bytes).padStart(8)}, ${kb(script.gzipBytes).padStart(7)} gzipped (budget ${kb(script.budgetBytes)})`);
  }
  const over = scripts.filter((script) => script.gzipBytes > script.budgetBytes);
  if (over.length > 0) {
    throw new SdkBudgetError(`web-sdk: over budget: ${over.map((s) => `${s.file} is ${s.gzipBytes} bytes gzipped, at most ${s.budgetBytes}`).join('; ')}`);
  }
  return scripts;
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when a file of the build is missing or older than a source, this script or the version. */
export function sdkIsStale(): boolean {
  const files = sdkFiles().map((file) => join(distDir, file));
  if (files.some((file) => !existsSync(file))) return true;
  const sources = Math.max(newestSource(join(sdkRoot, 'src')), statSync(fileURLToPath(import.meta.url)).mtimeMs, statSync(packageJson).mtimeMs);
  return files.some((file) => statSync(file).mtimeMs < sources);
}

/** Builds only when needed: esbuild takes a fraction of a second, but most starts need nothing. */
export function ensureSdkBuilt(log: (line: string) => void = console.log): void {
  if (sdkIsStale()) buildSdk(log);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    buildSdk();
  } catch (error) {
    console.error(error instanceof SdkBudgetError ? error.message : error);
    process.exit(1);
  }
}
