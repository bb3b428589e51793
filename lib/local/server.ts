/**
 * The local API: one HTTP server answering every route of functions/manifest/operations.ts
 * with the same handler Lambda runs (its module, or with --bundled its bundle), behind API Gateway's limits
 * (10 MiB payload, 29 s integration timeout) and error answers. Of a body it
 * keeps no more than the operation's own bound (plus one byte), so an
 * oversized upload costs no memory and gets the handler's own refusal.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { defaultMaxBodyBytes, maxBodyBytesOf } from '../../functions/manifest/body-limits';
import { httpFunctionTimeoutSeconds, type HttpOperation } from '../../functions/manifest/operations';
import { gatewayResources, resourcePath, type RoutedFunction } from '../../functions/manifest/routes';
import { lambdaContext, sendProxyResult, toProxyEvent, type RouteMatch } from './api-gateway';
import type { HandlerLoader } from './handlers';
import { invoke } from './invocation';

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * One API Gateway resource and method of the local API: an integrator
 * operation's path and method, or a resource of a routed function, which
 * takes every method (`ANY`), as in lib/aws/constructs/ingestion-api.ts.
 */
export interface LocalRoute {
  /** The function's id, as in functions/manifest/operations.ts. */
  functionId: string;
  /** The resource path, `{name}` a parameter and a final `{proxy+}` the rest of the path. */
  resource: string;
  /** A method, or `ANY`. */
  method: string;
  /** A browser-key operation: it answers its own CORS preflight. */
  browser?: boolean;
  /** The most of a body the function takes: more is never held (the function refuses it by length). */
  maxBodyBytes: number;
  pattern: RegExp;
  parameterNames: string[];
  /** Specific resources win over greedy ones (`{proxy+}`), as in API Gateway. */
  greedy: boolean;
  handler: ProxyHandler;
}

/** API Gateway's own limits, applied before a handler runs. */
export const gatewayLimits = { payloadBytes: 10 * 1024 * 1024, timeoutMs: 29_000 };

function compilePath(path: string): { pattern: RegExp; parameterNames: string[]; greedy: boolean } {
  const parameterNames: string[] = [];
  let greedy = false;
  const source = resourcePath(path)
    .split('/')
    .map((segment) => {
      const parameter = /^\{(\w+)(\+?)\}$/.exec(segment);
      if (!parameter) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      parameterNames.push(parameter[1]);
      greedy ||= parameter[2] === '+';
      return parameter[2] === '+' ? '(.+)' : '([^/]+)';
    })
    .join('/');
  // API Gateway ignores a trailing slash: `/affiliates/app_1/` is the resource `/affiliates/{app_id}`.
  return { pattern: new RegExp(`^${source}/?$`), parameterNames, greedy };
}

/** Loads each function's handler (its source module, or its bundle: handlers.ts) and lists the resources that reach it. */
export async function loadRoutes(operations: HttpOperation[], routed: RoutedFunction[], load: HandlerLoader): Promise<LocalRoute[]> {
  const forOperations = operations.map(async (operation) => ({
    functionId: operation.id,
    resource: operation.path,
    method: operation.method,
    browser: operation.browser === true,
    maxBodyBytes: maxBodyBytesOf(operation.id),
    ...compilePath(operation.path),
    handler: (await load(operation)) as ProxyHandler,
  }));
  const forRouted = routed.map(async (fn) => {
    const handler = (await load(fn)) as ProxyHandler;
    const maxBodyBytes = Math.max(...fn.routes.map((route) => route.maxBodyBytes ?? defaultMaxBodyBytes));
    return gatewayResources(fn).map((resource) => ({ functionId: fn.id, resource, method: 'ANY', maxBodyBytes, ...compilePath(resource), handler }));
  });
  return [...(await Promise.all(forOperations)), ...(await Promise.all(forRouted)).flat()];
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
export function readBody(request: IncomingMessage, keep: number, limit: number): Promise<Buffer | undefined> {
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

/**
 * How long an idle kept-alive connection stays open: longer than clients assume (Node's fetch and agents reuse a
 * socket for 4–5 s, and Node's server closes at 5 s, a race that cuts a request off), as load balancers do (60 s).
 */
export const keepAliveTimeoutMs = 65_000;

/** Every local HTTP server keeps idle connections as a load balancer does (keepAliveTimeoutMs). */
export function keepingConnectionsAlive<S extends Server>(server: S): S {
  server.keepAliveTimeout = keepAliveTimeoutMs;
  // Above keepAliveTimeout, or Node would close a connection between a request's headers and its idle wait.
  server.headersTimeout = keepAliveTimeoutMs + 1000;
  return server;
}

export function createApiServer(routes: LocalRoute[], options: { log: (line: string) => void; statics?: StaticHandler[] }): Server {
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    try {
      const matched = routes
        .map((route) => ({ route, match: route.pattern.exec(url.pathname) }))
        .filter((c): c is { route: LocalRoute; match: RegExpExecArray } => c.match !== null);
      // The most specific resource decides, as in API Gateway: a path of its own before a greedy `{proxy+}`.
      const candidates = matched.some((c) => !c.route.greedy) ? matched.filter((c) => !c.route.greedy) : matched;
      if (candidates.length === 0) {
        if (options.statics?.some((serve) => serve(request, response, url))) return;
        return reply(response, 404, 'Not Found');
      }
      // A browser-key operation answers its own CORS preflight, as API Gateway routes OPTIONS to it; a routed function takes every method.
      const chosen = candidates.find((c) => c.route.method === 'ANY' || c.route.method === request.method || (request.method === 'OPTIONS' && c.route.browser));
      if (!chosen) {
        const allow = [...new Set(candidates.map((c) => c.route.method))].join(', ');
        return reply(response, 405, 'Method Not Allowed', { Allow: allow });
      }
      const body = await readBody(request, chosen.route.maxBodyBytes + 1, gatewayLimits.payloadBytes);
      if (body === undefined) return reply(response, 413, 'Request Too Long');
      const params = Object.fromEntries(chosen.route.parameterNames.map((name, i) => [name, decodeURIComponent(chosen.match[i + 1])]));
      const match: RouteMatch = {
        resource: chosen.route.resource,
        pathParameters: chosen.route.parameterNames.length ? params : null,
      };
      const event = toProxyEvent(request, url, body, match);
      // The function's own timeout, as in Lambda: what its remaining time counts down from.
      const context = lambdaContext(`${chosen.route.functionId}Function`, httpFunctionTimeoutSeconds * 1000);
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
  return keepingConnectionsAlive(server);
}
