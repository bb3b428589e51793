/**
 * The programme view: every affiliate's month, its totals and top lists
 * (functions/back-office/programme.ts), as JSON and as CSV.
 */
import { everyone, sessionTables, type ConsoleRouteDefinition } from '../route';
import { validProgrammeQuery } from './schemas';

/**
 * What each affiliate's report reads (the affiliates and plans, the currency, the figures and link names) and the
 * sub-id rows beside the figures in the funnel table.
 */
const programmeGrants = {
  tables: { ...sessionTables, apps: 'read', affiliates: 'read', funnel: 'read', links: 'read' },
  indexes: { links: ['by-affiliate'] },
} as const;

export const routes = [
  {
    id: 'ConsoleProgramme',
    method: 'GET',
    path: '/console/api/programme',
    roles: everyone,
    mutates: false,
    query: validProgrammeQuery,
    ...programmeGrants,
  },
  {
    id: 'ConsoleProgrammeCsv',
    method: 'GET',
    path: '/console/api/programme.csv',
    roles: everyone,
    mutates: false,
    query: validProgrammeQuery,
    ...programmeGrants,
  },
] as const satisfies readonly ConsoleRouteDefinition[];
