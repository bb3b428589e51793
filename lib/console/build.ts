/**
 * Builds the back-office console's front end (functions/console/ui, Preact +
 * preact-iso + Pico; its API is beside it in functions/console) into
 * dist/console with esbuild:
 *
 *   index.html                      the single page; every /console/<route> answers it
 *   assets/console-<hash>.js|.css   content-hashed, so they can be cached for ever
 *   assets/*.map                    their source maps
 *
 * It prints the first load's gzipped size (all of its JS and CSS) and fails
 * when it is over the budget (100 KB). `npm run build:console` runs it;
 * `npm start`, the tests that need it and `cdk synth` build when the output
 * is missing or older than the sources (ensureConsoleBuilt).
 */
import { buildSync } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const consoleSourceDir = join(repoRoot, 'functions', 'console', 'ui');
/** Built output, not source (gitignored): beside the repository's other build output, not in web-sdk/, which is the push SDK's. */
export const consoleDistDir = join(repoRoot, 'dist', 'console');
export const consoleAssetsDir = join(consoleDistDir, 'assets');
const packageJson = join(repoRoot, 'package.json');

/** Where the console is served, in the local stack and on the CDN alike. */
export const CONSOLE_PREFIX = '/console/';
export const CONSOLE_ASSETS_PREFIX = `${CONSOLE_PREFIX}assets/`;
export const CONSOLE_INDEX = 'index.html';
/** Gzipped bytes the first load (its JS and CSS) may take at most. */
export const consoleBudgetBytes = 100 * 1024;

/**
 * What the console's page may load and run: its own files and API only, no
 * inline script or style. Served with the page locally and by the CDN.
 */
export const consoleContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export interface ConsoleBuild {
  /** The hashed files the page loads first, relative to the assets directory. */
  script: string;
  stylesheet: string;
  /** Gzipped bytes of script + stylesheet. */
  gzipBytes: number;
  budgetBytes: number;
}

export class ConsoleBudgetError extends Error {}

function writeAtomically(path: string, contents: Uint8Array | string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

/** The page: no inline script or style, so the policy needs no 'unsafe-inline'. */
export function consolePage(script: string, stylesheet: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>urm console</title>
<link rel="stylesheet" href="${CONSOLE_ASSETS_PREFIX}${stylesheet}">
<script type="module" src="${CONSOLE_ASSETS_PREFIX}${script}"></script>
</head>
<body>
<div id="console"><noscript>The urm console needs JavaScript.</noscript></div>
</body>
</html>
`;
}

const gzipSize = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Builds the console, prints its first load's size, and throws ConsoleBudgetError when it is over budget. */
export function buildConsole(log: (line: string) => void = console.log, budgetBytes: number = consoleBudgetBytes): ConsoleBuild {
  mkdirSync(consoleAssetsDir, { recursive: true });
  const result = buildSync({
    entryPoints: { console: join(consoleSourceDir, 'main.tsx') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    sourcemap: 'linked',
    legalComments: 'none',
    outdir: consoleAssetsDir,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
    logLevel: 'silent',
  });
  const outputs = result.outputFiles ?? [];
  for (const output of outputs) writeAtomically(output.path, output.contents);
  const names = outputs.map((output) => relative(consoleAssetsDir, output.path));
  const script = names.find((name) => name.endsWith('.js'));
  const stylesheet = names.find((name) => name.endsWith('.css'));
  if (!script || !stylesheet) throw new Error(`console build: expected one script and one stylesheet, got ${names.join(', ')}`);
  writeAtomically(join(consoleDistDir, CONSOLE_INDEX), consolePage(script, stylesheet));
  // Files of earlier builds go: the page names only this build's.
  for (const name of readdirSync(consoleAssetsDir)) {
    if (!names.includes(name) && !name.endsWith('.tmp')) unlinkSync(join(consoleAssetsDir, name));
  }

  const gzipBytes = gzipSize(join(consoleAssetsDir, script)) + gzipSize(join(consoleAssetsDir, stylesheet));
  log(`console: first load (${script}, ${stylesheet}) ${kb(gzipBytes)} gzipped (budget ${kb(budgetBytes)})`);
  if (gzipBytes > budgetBytes) {
    throw new ConsoleBudgetError(`console: over budget: the first load is ${gzipBytes} bytes gzipped, at most ${budgetBytes}`);
  }
  return { script, stylesheet, gzipBytes, budgetBytes };
}

/** The files the built page loads (from index.html), or undefined when there is no build. */
export function builtConsoleAssets(): string[] | undefined {
  const index = join(consoleDistDir, CONSOLE_INDEX);
  if (!existsSync(index)) return undefined;
  const html = readFileSync(index, 'utf8');
  return [...html.matchAll(/\/console\/assets\/([\w.-]+)/g)].map((match) => basename(match[1]!));
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when the page or a file it loads is missing, or older than a source, this script or package.json. */
export function consoleIsStale(): boolean {
  const assets = builtConsoleAssets();
  if (!assets || assets.some((name) => !existsSync(join(consoleAssetsDir, name)))) return true;
  const sources = Math.max(newestSource(consoleSourceDir), statSync(fileURLToPath(import.meta.url)).mtimeMs, statSync(packageJson).mtimeMs);
  return statSync(join(consoleDistDir, CONSOLE_INDEX)).mtimeMs < sources;
}

export function ensureConsoleBuilt(log: (line: string) => void = console.log): void {
  if (consoleIsStale()) buildConsole(log);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    buildConsole();
  } catch (error) {
    console.error(error instanceof ConsoleBudgetError ? error.message : error);
    process.exit(1);
  }
}
