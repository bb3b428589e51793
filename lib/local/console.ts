/**
 * The back-office console in the local stack, on the API's origin (so the
 * session cookie is first-party), as the CDN serves it in AWS:
 * `/console/` and every `/console/<route>` answer the single page,
 * `/console/assets/<hashed file>` the built files, cached for ever. The
 * console's API (`/console/api/…`) is routed to its operations before this
 * runs; an unknown API path is a 404 here, never the page.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, join } from 'node:path';
import { CONSOLE_ASSETS_PREFIX, CONSOLE_INDEX, CONSOLE_PREFIX, consoleAssetsDir, consoleContentSecurityPolicy, consoleDistDir } from '../console/build';
import type { StaticHandler } from './server';

/** The headers of every console file, here and on the CDN (lib/aws/constructs/push-cdn.ts). */
export const consoleSecurityHeaders = {
  'Content-Security-Policy': consoleContentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
} as const;

export const consoleCacheControl = { page: 'no-cache', asset: 'public, max-age=31536000, immutable' } as const;

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** Whether a path is one of the single page's routes (answered with index.html). */
export function isConsoleRoute(pathname: string): boolean {
  if (pathname === '/console' || pathname === CONSOLE_PREFIX) return true;
  return pathname.startsWith(CONSOLE_PREFIX) && !pathname.startsWith(`${CONSOLE_PREFIX}api/`) && !pathname.startsWith(CONSOLE_ASSETS_PREFIX);
}

function send(request: IncomingMessage, response: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string>): void {
  response.writeHead(status, { ...consoleSecurityHeaders, ...headers });
  response.end(request.method === 'HEAD' ? undefined : body);
}

export function consoleStatics(log: (line: string) => void, distDirectory = consoleDistDir): StaticHandler {
  const assetsDir = distDirectory === consoleDistDir ? consoleAssetsDir : join(distDirectory, 'assets');
  return (request, response, url) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const { pathname } = url;
    let file: string | undefined;
    let headers: Record<string, string> = {};
    if (isConsoleRoute(pathname)) {
      file = join(distDirectory, CONSOLE_INDEX);
      headers = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': consoleCacheControl.page };
    } else if (pathname.startsWith(CONSOLE_ASSETS_PREFIX)) {
      const name = pathname.slice(CONSOLE_ASSETS_PREFIX.length);
      // One plain file name: nothing outside the assets directory.
      if (name !== basename(name) || !/^[\w.-]+$/.test(name) || name.startsWith('.')) return false;
      const extension = /\.[a-z]+$/.exec(name)?.[0] ?? '';
      file = join(assetsDir, name);
      headers = { 'Content-Type': contentTypes[extension] ?? 'application/octet-stream', 'Cache-Control': consoleCacheControl.asset };
    } else {
      return false;
    }
    readFile(file).then(
      (contents) => send(request, response, 200, contents, headers),
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') log(`console: ${pathname}: ${error.message}`);
        send(request, response, 404, JSON.stringify({ message: 'Not Found' }), { 'Content-Type': 'application/json; charset=utf-8' });
      },
    );
    return true;
  };
}
