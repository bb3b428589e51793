/**
 * The shapes of the manifest (operations.ts): what a function needs of AWS,
 * and the routes of a browser UI's routed function, which each area declares
 * in its own folder (functions/<area>/routes.ts) and operations.ts gathers.
 */
import type { TableName } from './resources';

export type Access = 'read' | 'write' | 'readwrite';

/** What a function (or one route of a routed function) needs of AWS: its IAM grants and the settings that go with them. */
export interface Grants {
  /** The tables it touches, and how. */
  tables: Partial<Record<TableName, Access>>;
  /** The indexes it queries, by table (which it must read): granted dynamodb:Query on exactly these. */
  indexes?: Partial<Record<TableName, readonly string[]>>;
  /** How it touches the ingestion stream, if at all. */
  stream?: 'write';
  /** It sends email through SES (lib/aws/constructs/email.ts grants it). */
  email?: 'send';
  /**
   * The kinds of secret it reads (functions/manifest/secrets.ts), as name
   * patterns under the stack's secrets path, `*` matching within it: in AWS
   * ssm:GetParameter on exactly those ARNs, so a function that needs identity
   * secrets cannot read a VAPID key or a postback signing secret.
   */
  secretReads?: readonly string[];
  /**
   * The kinds of secret it asks whether one exists, never reading it
   * (SecretStore.exists): in AWS ssm:DescribeParameters, which IAM cannot
   * scope to a path (its resource is `*`) and which answers names, not values.
   */
  secretChecks?: readonly string[];
  /** The kinds of secret it may create or replace, as secretReads names them: ssm:PutParameter on those ARNs, reading none. */
  secretWrites?: readonly string[];
  /** It stores or sends to web push tokens: it learns the operator's push endpoint hosts (pushSending in resources.ts). */
  pushEndpoints?: true;
  /** It calls affiliates' postback URLs: it learns the operator's development hosts (postbackSending in resources.ts). */
  postbackHosts?: true;
}

export interface FunctionDefinition extends Grants {
  /** PascalCase id of the function in CDK (`<id>Function`). */
  id: string;
  /** Handler module, relative to the repository root; it exports `handler`. */
  entry: string;
}

/**
 * One route of a browser UI's routed function, declared once in its area's
 * folder (functions/<area>/routes.ts), which adds what the area checks
 * (roles, CSRF, the body's schema).
 */
export interface RouteDefinition extends Grants {
  /** PascalCase id, unique across the service: in logs, metrics and docs. */
  id: string;
  method: 'GET' | 'POST';
  /** API path; `{name}` marks a path parameter. */
  path: string;
  /** The largest request body it takes (its middleware answers 413 beyond); default: defaultMaxBodyBytes. */
  maxBodyBytes?: number;
  /** In the OpenAPI reference (lib/api-docs): a page the spec promises integrators (`/redirect`); other routes are docs/api.md's. */
  documented?: true;
}

/**
 * A browser UI's one Lambda function (docs/architecture.md, "Where a function
 * boundary goes"): a router over its routes. API Gateway sends it every
 * method of its proxy resources (`/console/api/{proxy+}`) and of each route
 * path no proxy covers, so an unknown route gets the router's 404.
 */
export interface RoutedFunction extends FunctionDefinition {
  /** Greedy API Gateway resources the area answers under, ending in `{proxy+}`. */
  proxies: readonly string[];
  routes: readonly RouteDefinition[];
}

const grantNames = ['stream', 'email', 'pushEndpoints', 'postbackHosts'] as const;
const secretGrants = ['secretReads', 'secretChecks', 'secretWrites'] as const;

/** The union of the routes' grants: what the one function of an area may do. */
export function unionGrants(routes: readonly Grants[]): Grants {
  const union: Grants = { tables: {} };
  const indexes: Partial<Record<TableName, Set<string>>> = {};
  const secrets = Object.fromEntries(secretGrants.map((name) => [name, new Set<string>()])) as Record<(typeof secretGrants)[number], Set<string>>;
  for (const route of routes) {
    for (const [table, access] of Object.entries(route.tables) as [TableName, Access][]) {
      const held = union.tables[table];
      union.tables[table] = held === undefined || held === access ? access : 'readwrite';
    }
    for (const [table, names] of Object.entries(route.indexes ?? {}) as [TableName, readonly string[]][]) {
      indexes[table] ??= new Set();
      for (const name of names) indexes[table].add(name);
    }
    for (const name of secretGrants) for (const pattern of route[name] ?? []) secrets[name].add(pattern);
    for (const name of grantNames) if (route[name] !== undefined) Object.assign(union, { [name]: route[name] });
  }
  if (Object.keys(indexes).length > 0) union.indexes = Object.fromEntries(Object.entries(indexes).map(([table, names]) => [table, [...names].sort()]));
  for (const name of secretGrants) if (secrets[name].size > 0) union[name] = [...secrets[name]].sort();
  return union;
}

/** A routed function of these routes, granted their union. */
export function routedFunction(definition: { id: string; entry: string; proxies: readonly string[]; routes: readonly RouteDefinition[] }): RoutedFunction {
  return { ...unionGrants(definition.routes), ...definition };
}

/** A path as API Gateway names its resource: without a trailing slash (the affiliate portal's home is `/affiliates/{app_id}/`). */
export function resourcePath(path: string): string {
  return path.length > 1 ? path.replace(/\/$/, '') : path;
}

/**
 * The API Gateway resources that send requests to a routed function, each
 * with every method: its proxies, and each route path that no proxy covers
 * (a `{proxy+}` needs at least one segment after its prefix).
 */
export function gatewayResources(fn: Pick<RoutedFunction, 'proxies' | 'routes'>): string[] {
  const prefixes = fn.proxies.map((proxy) => proxy.replace(/\{proxy\+\}$/, ''));
  const uncovered = fn.routes
    .map((route) => resourcePath(route.path))
    .filter((path) => !prefixes.some((prefix) => path.startsWith(prefix) && path.length > prefix.length));
  return [...new Set([...fn.proxies, ...uncovered])];
}
