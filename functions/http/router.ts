/**
 * The router of a browser UI's one function (@middy/http-router): each
 * declared route (functions/<area>/routes.ts) gets the handler its area builds
 * for it, which carries the route's own checks (session, role, CSRF, body) as
 * middleware; an address no route declares gets the area's not-found answer.
 *
 * Path parameters: API Gateway decodes those of its resource (`{app_id}` of
 * `/affiliates/{app_id}/{proxy+}`), while the router matches the raw path, so
 * what the router adds (`{profile_id}`) is percent-decoded here; one that
 * does not decode is no address of ours.
 */
import httpRouterHandler from '@middy/http-router';
import type { Context } from 'aws-lambda';
import type { RouteDefinition } from '../manifest/routes';
import { NotFound } from '../domain/errors';
import type { ApiEvent, ApiResult } from './types';

export type RouteHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

/** The names of the `{name}` parameters of a path template (a `{proxy+}` counts as `proxy`). */
function parameterNames(template: string | undefined): string[] {
  return [...(template ?? '').matchAll(/\{(\w+)\+?\}/g)].map((match) => match[1]);
}

/** The route's handler, behind the decoding of the parameters the router matched. */
function withDecodedParameters(route: RouteDefinition, handler: RouteHandler): RouteHandler {
  const names = parameterNames(route.path);
  return async (event, context) => {
    const decodedByGateway = new Set(parameterNames(event.resource));
    const parameters: Record<string, string | undefined> = { ...event.pathParameters };
    for (const name of names) {
      const raw = parameters[name];
      if (raw === undefined || decodedByGateway.has(name)) continue;
      try {
        parameters[name] = decodeURIComponent(raw);
      } catch {
        throw new NotFound('Not Found');
      }
    }
    event.pathParameters = parameters;
    return handler(event, context);
  };
}

/** One handler for every route of an area: `handlerOf(route)` answers a declared route, `notFound` any other address. */
export function routeRequests<R extends RouteDefinition>(
  routes: readonly R[],
  handlerOf: (route: R) => RouteHandler,
  notFound: (request: { method: string; path: string }) => ApiResult,
): RouteHandler {
  const route = httpRouterHandler({
    routes: routes.map((declared) => ({ method: declared.method, path: declared.path, handler: withDecodedParameters(declared, handlerOf(declared)) })),
    // middy's type has it throw; an answer it returns is answered as well, and lets each area keep its own error body.
    notFoundResponse: notFound as (request: { method: string; path: string }) => never,
  });
  return async (event, context) => route(event as never, context) as Promise<ApiResult>;
}
