/**
 * The back-office console's build (lib/console/build.ts): its first load
 * stays within 120 KB gzipped, the page needs no inline script or style (the
 * CSP forbids them), and the sources never write HTML by string.
 */
import { describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildConsole, ConsoleBudgetError, consoleAssetsDir, consoleBudgetBytes, consoleDistDir, consoleSourceDir } from '../../lib/console/build';

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? sources(join(dir, name)) : [join(dir, name)]));

describe('the console build', () => {
  test('loads its first page in at most 120 KB gzipped, its shell, the chunks the shell imports and its CSS counted', () => {
    const lines: string[] = [];

    const built = buildConsole((line) => lines.push(line));

    const measured = [built.script, ...built.preloads, built.stylesheet].reduce(
      (sum, file) => sum + gzipSync(readFileSync(join(consoleAssetsDir, file)), { level: 9 }).length,
      0,
    );
    expect(built.gzipBytes).toBe(measured);
    expect(measured).toBeLessThanOrEqual(consoleBudgetBytes);
    expect(consoleBudgetBytes).toBe(120 * 1024);
    expect(lines.join('\n')).toMatch(/console: first load .* KB gzipped \(budget 120\.0 KB\)/);
  });

  test('fails when the first load is over its budget', () => {
    expect(() => buildConsole(() => undefined, 1024)).toThrow(ConsoleBudgetError);
  });

  test('writes a page that loads only its hashed files, with no inline script or style', () => {
    const built = buildConsole(() => undefined);
    const page = readFileSync(join(consoleDistDir, 'index.html'), 'utf8');

    expect(page).toMatch(/<script type="module" src="\/console\/assets\/console-\w+\.js"><\/script>/);
    expect(page).toMatch(/<link rel="stylesheet" href="\/console\/assets\/console-\w+\.css">/);
    const loaded = [...page.matchAll(/(?:src|href)="\/console\/assets\/([\w.-]+)"/g)].map((match) => match[1]);
    expect(loaded.filter((file) => file?.startsWith('chunk-'))).toEqual(built.preloads);
    expect(page).not.toMatch(/<script>|<style|\sstyle=|\son\w+=/i);
  });

  test('loads each page lazily: no module of pages/ is in the first load', () => {
    const built = buildConsole(() => undefined);

    expect(built.firstLoadModules).toContain('functions/console/ui/app.tsx');
    expect(built.firstLoadModules.filter((module) => module.startsWith('functions/console/ui/pages/'))).toEqual([]);
  });

  test('sources render through JSX only: no innerHTML, no dangerouslySetInnerHTML', () => {
    const offenders = sources(consoleSourceDir).filter((file) =>
      /innerHTML|dangerouslySetInnerHTML|insertAdjacentHTML|document\.write/.test(readFileSync(file, 'utf8')),
    );

    expect(offenders).toEqual([]);
  });
});
