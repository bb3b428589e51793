/**
 * The console API's one function, made from its ports: a router over its
 * routes (routes.ts), each route's handler a middy chain built from its
 * declaration (session, role, CSRF, body, query: functions/http/console-auth.ts)
 * ending in its area's implementation. The chain every answer shares
 * (logging, no-store, error mapping) wraps the router once; an address no
 * route declares is the router's 404 in the console's error shape.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { consoleApi, consoleRouteChecks, type ConsoleAuthPorts, type ConsoleEvent } from '../http/console-auth';
import { json } from '../http/response';
import { routeRequests, type RouteHandler } from '../http/router';
import type { ApiResult } from '../http/types';
import { affiliatesHandlers, type AffiliatesPorts } from './affiliates/handlers';
import { journeysHandlers, type JourneysPorts } from './journeys/handlers';
import { broadcastsHandlers, type BroadcastsPorts } from './broadcasts/handlers';
import { overviewHandlers, type OverviewPorts } from './overview/handlers';
import { playersHandlers, type PlayersPorts } from './players/handlers';
import { programmeHandlers, type ProgrammePorts } from './programme/handlers';
import { rejectionsHandlers, type RejectionsPorts } from './rejections/handlers';
import { resultsHandlers, type ResultsPorts } from './results/handlers';
import type { ConsoleRouteDefinition, Implementation, Implementations } from './route';
import { routes } from './routes';
import { segmentsHandlers, type SegmentsPorts } from './segments/handlers';
import { settingsHandlers, type SettingsPorts } from './settings/handlers';
import { statementsHandlers, type StatementsPorts } from './statements/handlers';
import { templatesHandlers, type TemplatesPorts } from './templates/handlers';
import { usersHandlers, type UsersPorts } from './users/handlers';

/** What the console's routes are made of: every area's ports, and the session's. */
export type ConsolePorts = ConsoleAuthPorts &
  SettingsPorts &
  PlayersPorts &
  AffiliatesPorts &
  ProgrammePorts &
  UsersPorts &
  RejectionsPorts &
  OverviewPorts &
  SegmentsPorts &
  TemplatesPorts &
  ResultsPorts &
  JourneysPorts &
  BroadcastsPorts &
  StatementsPorts;

/** Each route's implementation, by id: the areas' together (the type says every declared route has one). */
export function consoleImplementations(ports: ConsolePorts) {
  return {
    ...usersHandlers(ports),
    ...settingsHandlers(ports),
    ...playersHandlers(ports),
    ...affiliatesHandlers(ports),
    ...programmeHandlers(ports),
    ...rejectionsHandlers(ports),
    ...overviewHandlers(ports),
    ...segmentsHandlers(ports),
    ...templatesHandlers(ports),
    ...resultsHandlers(ports),
    ...journeysHandlers(ports),
    ...broadcastsHandlers(ports),
    ...statementsHandlers(ports),
  } satisfies Implementations<typeof routes>;
}

/** A route's chain: its checks, then its implementation with what they established. */
function routeChain<R extends ConsoleRouteDefinition>(route: R, implementation: Implementation<R>, ports: ConsoleAuthPorts): RouteHandler {
  // The outer chain answers a timeout; this one only runs within it.
  const chain = middy<ConsoleEvent<R>, ApiResult, Error, Context>({ timeoutEarlyInMillis: 0 })
    .use(consoleRouteChecks(route, ports))
    .handler(async (event, context) =>
      implementation({
        identity: event.console.identity,
        session: event.console,
        body: event.body,
        query: event.queryStringParameters,
        path: event.pathParameters ?? {},
        remainingMs: () => context.getRemainingTimeInMillis(),
      }),
    );
  // The checks make the router's ApiEvent this route's ConsoleEvent (middy types a chain by the event its middleware establishes).
  return chain as RouteHandler;
}

export function makeConsoleHandler(ports: ConsolePorts) {
  const implementations: Implementations<typeof routes> = consoleImplementations(ports);
  return consoleApi().handler(
    routeRequests(
      routes,
      // One implementation per id (the type above); looked up by the route's own id, so it is this route's.
      (route) => routeChain(route, implementations[route.id] as Implementation<typeof route>, ports),
      () => json(404, { message: 'Not Found' }),
    ),
  );
}
