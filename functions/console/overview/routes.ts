/** The application's figures: the console's home (functions/back-office/figures.ts). */
import { everyone, sessionTables, type ConsoleRouteDefinition } from '../route';
import { validOverviewQuery } from './schemas';

export const routes = [
  {
    id: 'ConsoleOverview',
    method: 'GET',
    path: '/console/api/overview',
    roles: everyone,
    mutates: false,
    query: validOverviewQuery,
    // apps: the main currency; figures: players and registrations (one Query); funnel: the application's day rows (one Query).
    tables: { ...sessionTables, apps: 'read', figures: 'read', funnel: 'read' },
  },
] as const satisfies readonly ConsoleRouteDefinition[];
