/** The console in the local stack (lib/local/console.ts), over HTTP on 127.0.0.1, from a built directory of its own. */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consoleStatics } from '../../../lib/local/console';
import { consoleContentSecurityPolicy } from '../../../lib/console/build';

let dir: string;
let server: Server;
let base: string;
const logged: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'urm-console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console page</title>');
  writeFileSync(join(dir, 'assets', 'console-ABC123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'assets', 'console-DEF456.css'), 'body{}');
  const serve = consoleStatics((line) => logged.push(line), dir);
  server = createServer((request, response) => {
    if (!serve(request, response, new URL(request.url ?? '/', 'http://localhost'))) response.writeHead(418).end('not mine');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('the console served locally', () => {
  test.each(['/console', '/console/', '/console/players', '/console/players/player-42', '/console/users'])(
    '%s answers the single page, not cached, with the CSP',
    async (path) => {
      const answer = await fetch(`${base}${path}`);

      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe('<!doctype html><title>console page</title>');
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('no-cache');
      expect(answer.headers.get('content-security-policy')).toBe(consoleContentSecurityPolicy);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('referrer-policy')).toBe('same-origin');
    },
  );

  test('serves a hashed asset with its type, cached for a year', async () => {
    const script = await fetch(`${base}/console/assets/console-ABC123.js`);
    const style = await fetch(`${base}/console/assets/console-DEF456.css`);

    expect(await script.text()).toBe('console.log(1)');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  test('answers 404 for an asset it does not have, and never a file outside the assets', async () => {
    const missing = await fetch(`${base}/console/assets/console-OLD.js`);
    const escaped = await fetch(`${base}/console/assets/..%2Findex.html`);

    expect(missing.status).toBe(404);
    expect(escaped.status).not.toBe(200);
  });

  test('leaves the console API and other paths to the API routes (an unknown API path is never the page)', async () => {
    for (const path of ['/console/api/nothing', '/consoles', '/']) {
      const answer = await fetch(`${base}${path}`);
      expect(answer.status).toBe(418);
    }
    expect((await fetch(`${base}/console/`, { method: 'POST' })).status).toBe(418);
  });
});
