/**
 * Builds the back-office console's front end (functions/console/ui, Preact +
 * preact-iso, in the design system of functions/ui/design; its API is beside
 * it in functions/console) into dist/console with esbuild:
 *
 *   index.html                      the single page; every /console/<route> answers it
 *   assets/console-<hash>.js        the shell: session, sidebar, router
 *   assets/chunk-<hash>.js          each page (and uPlot), loaded on first use; the
 *                                   shell's own shared chunks are preloaded by the page
 *   assets/console-<hash>.css       the design system's one stylesheet, minified
 *   assets/*.map                    the scripts' source maps
 *
 * It prints the first load's gzipped size (the shell's JS, the chunks it
 * imports statically, and the CSS) and fails when it is over the budget
 * (120 KB). `npm run build:console` runs it;
 * `npm start`, the tests that need it and `cdk synth` build when the output
 * is missing or older than the sources (ensureConsoleBuilt).
 */
import { buildSync } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { designStylesheet } from '../../functions/ui/design/stylesheet';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const consoleSourceDir = join(repoRoot, 'functions', 'console', 'ui');
/** The design system the console is built in (its components and its stylesheet). */
export const designSourceDir = join(repoRoot, 'functions', 'ui');
/** Built output, not source (gitignored): beside the repository's other build output, not in web-sdk/, which is the push SDK's. */
export const consoleDistDir = join(repoRoot, 'dist', 'console');
export const consoleAssetsDir = join(consoleDistDir, 'assets');
const packageJson = join(repoRoot, 'package.json');

/** Where the console is served, in the local stack and on the CDN alike. */
export const CONSOLE_PREFIX = '/console/';
export const CONSOLE_ASSETS_PREFIX = `${CONSOLE_PREFIX}assets/`;
export const CONSOLE_INDEX = 'index.html';
/** Gzipped bytes the first load (its JS and CSS) may take at most. */
export const consoleBudgetBytes = 120 * 1024;

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
  /** The chunks the shell imports statically (preloaded by the page), relative to the assets directory. */
  preloads: string[];
  /** The source modules in the first load (repository paths): the shell's, never a page's. */
  firstLoadModules: string[];
  /** Gzipped bytes of script + preloads + stylesheet. */
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
export function consolePage(script: string, stylesheet: string, preloads: readonly string[] = []): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<link rel="icon" href="data:,">
<title>urm console</title>
<link rel="stylesheet" href="${CONSOLE_ASSETS_PREFIX}${stylesheet}">
<script type="module" src="${CONSOLE_ASSETS_PREFIX}${script}"></script>
${preloads.map((chunk) => `<link rel="modulepreload" href="${CONSOLE_ASSETS_PREFIX}${chunk}">\n`).join('')}</head>
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
    splitting: true,
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
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  // The one stylesheet: uPlot's few rules for its canvas and the design system (functions/ui/design/stylesheet.ts).
  const styles = buildSync({
    stdin: { contents: `@import "uplot/dist/uPlot.min.css";\n${designStylesheet}`, loader: 'css', resolveDir: repoRoot, sourcefile: 'console.css' },
    bundle: true,
    minify: true,
    write: false,
    logLevel: 'silent',
    outfile: join(consoleAssetsDir, 'console.css'),
  });
  const css = styles.outputFiles[0]!.contents;
  const stylesheet = `console-${createHash('sha256').update(css).digest('hex').slice(0, 8).toUpperCase()}.css`;
  const outputs = [...(result.outputFiles ?? []), { path: join(consoleAssetsDir, stylesheet), contents: css }];
  for (const output of outputs) writeAtomically(output.path, output.contents);
  const names = outputs.map((output) => relative(consoleAssetsDir, output.path));
  const [entryPath, entry] = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint?.endsWith('main.tsx')) ?? [];
  if (!entryPath || !entry) throw new Error(`console build: no entry among ${names.join(', ')}`);
  const script = basename(entryPath);
  // The chunks the shell cannot start without (imported statically), transitively; dynamic imports are the pages.
  const preloads: string[] = [];
  const visit = (path: string) => {
    for (const imported of result.metafile.outputs[path]?.imports ?? []) {
      if (imported.kind !== 'import-statement' || preloads.includes(basename(imported.path))) continue;
      preloads.push(basename(imported.path));
      visit(imported.path);
    }
  };
  visit(entryPath);
  writeAtomically(join(consoleDistDir, CONSOLE_INDEX), consolePage(script, stylesheet, preloads));
  // Files of earlier builds go: the page names only this build's.
  for (const name of readdirSync(consoleAssetsDir)) {
    if (!names.includes(name) && !name.endsWith('.tmp')) unlinkSync(join(consoleAssetsDir, name));
  }

  const gzipBytes = [script, ...preloads, stylesheet].reduce((sum, file) => sum + gzipSize(join(consoleAssetsDir, file)), 0);
  log(`console: first load (${script}, ${preloads.length} preloaded chunks, ${stylesheet}) ${kb(gzipBytes)} gzipped (budget ${kb(budgetBytes)})`);
  if (gzipBytes > budgetBytes) {
    throw new ConsoleBudgetError(`console: over budget: the first load is ${gzipBytes} bytes gzipped, at most ${budgetBytes}`);
  }
  const firstLoadModules = [entryPath, ...preloads.map((chunk) => relative(repoRoot, join(consoleAssetsDir, chunk)))].flatMap((output) =>
    Object.keys(result.metafile.outputs[output]?.inputs ?? {}),
  );
  return { script, stylesheet, preloads, firstLoadModules, gzipBytes, budgetBytes };
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
  const sources = Math.max(
    newestSource(consoleSourceDir),
    newestSource(designSourceDir),
    statSync(fileURLToPath(import.meta.url)).mtimeMs,
    statSync(packageJson).mtimeMs,
  );
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
