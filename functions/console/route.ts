/**
 * The shape of a console route (declared once, in its area's routes.ts) and
 * of its implementation (made by its area's handlers.ts from ports). Types,
 * and the helper that makes a typed answer: no store or client here, since
 * the manifest reads the declarations.
 */
import type { CheckedBody, CheckedQuery, ConsoleChecks, ConsoleIdentity, ConsoleSession } from '../http/console-auth';
import { json } from '../http/response';
import type { ApiResult } from '../http/types';
import type { Role } from '../domain/enterprise';
import type { RouteDefinition } from '../manifest/routes';

export type { ConsoleIdentity } from '../http/console-auth';

/**
 * A route of the console's API: its address, bound and grants for the
 * manifest (with the session's own: `portalSessions: 'readwrite',
 * enterpriseUsers: 'read'`), and what its middleware checks: roles, CSRF
 * (`mutates`), the body's and the query's validators.
 */
export interface ConsoleRouteDefinition extends RouteDefinition, ConsoleChecks {
  path: `/console/api/${string}`;
}

/** Who may call a route. */
export const everyone = ['admin', 'marketer', 'viewer'] as const satisfies readonly Role[];
export const editors = ['admin', 'marketer'] as const satisfies readonly Role[];
export const admins = ['admin'] as const satisfies readonly Role[];

/** What every console route reads and writes to authorise its caller (functions/http/console-auth.ts): spread into its `tables`. */
export const sessionTables = { portalSessions: 'readwrite', enterpriseUsers: 'read' } as const satisfies RouteDefinition['tables'];

/** The names of a path's `{name}` parameters. */
type ParameterNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParameterNames<Rest> : never;

/** What a route's implementation is given: the caller, the checked body and query, the path parameters, and where it was called. */
export interface ConsoleRequest<R extends ConsoleRouteDefinition> {
  identity: ConsoleIdentity;
  /** The session called with (its id: only the operations about the session itself use it). */
  session: ConsoleSession;
  body: CheckedBody<R>;
  query: CheckedQuery<R>;
  /** The path parameters the router matched, percent-decoded. */
  path: Partial<Record<ParameterNames<R['path']>, string>>;
  /** Milliseconds left before the function times out. */
  remainingMs: () => number;
}

declare const answerType: unique symbol;

/** An answer that keeps the type of its JSON body, so the console's pages take it from here (functions/console/answers.ts). */
export type Answer<T> = ApiResult & { readonly [answerType]?: T };

/** A JSON answer of this body. */
export function answer<T>(statusCode: number, body: T, headers: Record<string, string> = {}): Answer<T> {
  return json(statusCode, body, headers);
}

export type Implementation<R extends ConsoleRouteDefinition> = (request: ConsoleRequest<R>) => Promise<ApiResult>;

/** One implementation for each route of `routes`, by id: no more, no fewer (what an area's handlers.ts `satisfies`). */
export type Implementations<Routes extends readonly ConsoleRouteDefinition[]> = { [R in Routes[number] as R['id']]: Implementation<R> };
