/**
 * Figure 5: gzipped sizes of the browser push client (the page script and
 * the service worker) as built by web-sdk/build.ts, against OneSignal's
 * page SDK and worker, the sizes integrators compare us with.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { portalCss, portalCssBudgetBytes } from '../../functions/affiliate-portal/pages/style';
import { consoleBudgetBytes } from '../../lib/console/build';
import { repoRoot } from '../support/local-stack';
import { report } from './support';

/** OneSignal's page SDK and service worker, gzipped, as the issue gives them. */
export const oneSignalKb = { page: 80, worker: 55 };

export interface WebSdkFile {
  file: string;
  bytes: number;
  gzipBytes: number;
  oneSignalGzipBytes: number;
}

export interface WebSdkResult {
  built: boolean;
  /** Why there are no sizes, when there are none. */
  note?: string;
  files: WebSdkFile[];
  /** The back-office console's first load (its JS and CSS), gzipped, and its budget; absent when it did not build. */
  console?: { gzipBytes: number; budgetBytes: number };
  /** The CSS every portal page inlines (affiliate and enterprise portal), as sent, and its budget. */
  portalCss: { bytes: number; gzipBytes: number; budgetBytes: number };
}

/** Builds the console (lib/console/build.ts) and measures the files its page loads first. */
function consoleFirstLoad(): WebSdkResult['console'] {
  const buildScript = join(repoRoot, 'lib', 'console', 'build.ts');
  if (!existsSync(buildScript)) return undefined;
  const build = spawnSync(process.execPath, ['--import', 'tsx', buildScript], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0) return undefined;
  const dist = join(repoRoot, 'dist', 'console');
  const page = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = [...page.matchAll(/\/console\/(assets\/[\w.-]+)/g)].map((match) => join(dist, match[1]!));
  const gzipBytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(file), { level: 9 }).length, 0);
  return { gzipBytes, budgetBytes: consoleBudgetBytes };
}

function portalCssSize(): WebSdkResult['portalCss'] {
  const css = Buffer.from(portalCss, 'utf8');
  return { bytes: css.length, gzipBytes: gzipSync(css, { level: 9 }).length, budgetBytes: portalCssBudgetBytes };
}

function main(): WebSdkResult {
  const buildScript = join(repoRoot, 'web-sdk', 'build.ts');
  if (!existsSync(buildScript)) return { built: false, note: 'not built yet: web-sdk/build.ts does not exist', files: [], portalCss: portalCssSize() };
  const build = spawnSync(process.execPath, ['--import', 'tsx', buildScript], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0)
    return { built: false, note: `not built: web-sdk/build.ts failed: ${(build.stderr || build.stdout).slice(-300)}`, files: [], portalCss: portalCssSize() };
  const files: WebSdkFile[] = [];
  for (const [file, oneSignal] of [
    ['urm-notification.js', oneSignalKb.page],
    ['urmSDKWorker.js', oneSignalKb.worker],
  ] as const) {
    const path = join(repoRoot, 'web-sdk', 'dist', file);
    if (!existsSync(path)) return { built: false, note: `not built yet: web-sdk/build.ts did not write dist/${file}`, files, portalCss: portalCssSize() };
    const content = readFileSync(path);
    files.push({ file, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length, oneSignalGzipBytes: oneSignal * 1024 });
  }
  return { built: true, files, console: consoleFirstLoad(), portalCss: portalCssSize() };
}

report(main());
