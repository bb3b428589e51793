/**
 * The local API: one HTTP server answering every route of functions/manifest/operations.ts
 * with the same handler Lambda runs (its module, or with --bundled its bundle), behind API Gateway's limits
 * (10 MiB payload, 29 s integration timeout) and error answers. Of a body it
 * keeps no more than the operation's own bound (plus one byte), so an
 * oversized upload costs no memory and gets the handler's own refusal.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { maxBodyBytesOf } from '../../functions/manifest/body-limits';
import { httpFunctionTimeoutSeconds, type HttpOperation } from '../../functions/manifest/operations';
import { lambdaContext, sendProxyResult, toProxyEvent, type RouteMatch } from './api-gateway';
import type { HandlerLoader } from './handlers';
import { invoke } from './invocation';

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface LocalRoute {
  operation: HttpOperation;
  pattern: RegExp;
  parameterNames: string[];
  handler: ProxyHandler;
}

/** API Gateway's own limits, applied before a handler runs. */
export const gatewayLimits = { payloadBytes: 10 * 1024 * 1024, timeoutMs: 29_000 };

function compilePath(path: string): { pattern: RegExp; parameterNames: string[] } {
  const parameterNames: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      const parameter = /^\{(\w+)\}$/.exec(segment);
      if (!parameter) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      parameterNames.push(parameter[1]);
      return '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), parameterNames };
}

/** Loads each operation's handler (its source module, or its bundle: handlers.ts). */
export async function loadRoutes(operations: HttpOperation[], load: HandlerLoader): Promise<LocalRoute[]> {
  return Promise.all(operations.map(async (operation) => ({ operation, ...compilePath(operation.path), handler: (await load(operation)) as ProxyHandler })));
}

export type StaticHandler = (request: IncomingMessage, response: ServerResponse, url: URL) => boolean;

function reply(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify({ message }));
}

/**
 * The body as API Gateway hands it on (undefined: over its payload limit),
 * holding at most `keep` bytes of it: the rest is read and dropped. A handler
 * refuses a body over its bound by length alone, before looking at a byte
 * of it, so the first `keep` = bound + 1 bytes get exactly the answer the
 * whole body would (403 for a bad key, 413 naming the bound otherwise).
 */
function readBody(request: IncomingMessage, keep: number, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        resolve(undefined);
        request.resume();
        return;
      }
      if (kept < keep) {
        const part = chunk.subarray(0, keep - kept);
        chunks.push(part);
        kept += part.length;
      }
    });
    request.on('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export function createApiServer(routes: LocalRoute[], options: { log: (line: string) => void; statics?: StaticHandler[] }): Server {
  return createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    try {
      const candidates = routes
        .map((route) => ({ route, match: route.pattern.exec(url.pathname) }))
        .filter((c): c is { route: LocalRoute; match: RegExpExecArray } => c.match !== null);
      if (candidates.length === 0) {
        if (options.statics?.some((serve) => serve(request, response, url))) return;
        return reply(response, 404, 'Not Found');
      }
      // A browser-key operation answers its own CORS preflight, as API Gateway routes OPTIONS to it.
      const chosen = candidates.find((c) => c.route.operation.method === request.method || (request.method === 'OPTIONS' && c.route.operation.browser));
      if (!chosen) {
        const allow = [...new Set(candidates.map((c) => c.route.operation.method))].join(', ');
        return reply(response, 405, 'Method Not Allowed', { Allow: allow });
      }
      const body = await readBody(request, maxBodyBytesOf(chosen.route.operation.id) + 1, gatewayLimits.payloadBytes);
      if (body === undefined) return reply(response, 413, 'Request Too Long');
      const params = Object.fromEntries(chosen.route.parameterNames.map((name, i) => [name, decodeURIComponent(chosen.match[i + 1])]));
      const match: RouteMatch = {
        resource: chosen.route.operation.path,
        pathParameters: chosen.route.parameterNames.length ? params : null,
      };
      const event = toProxyEvent(request, url, body, match);
      // The function's own timeout, as in Lambda: what its remaining time counts down from.
      const context = lambdaContext(`${chosen.route.operation.id}Function`, httpFunctionTimeoutSeconds * 1000);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), gatewayLimits.timeoutMs);
      });
      const result = await Promise.race([invoke(chosen.route.handler, event, context), timeout]).finally(() => clearTimeout(timer));
      if (result === 'timeout') return reply(response, 504, 'Endpoint request timed out');
      sendProxyResult(response, result);
    } catch (error) {
      options.log(`handler error on ${request.method} ${url.pathname}: ${(error as Error).stack ?? error}`);
      if (!response.headersSent) reply(response, 502, 'Internal server error');
      else response.end();
    }
  });
}
