/**
 * The programme view: every affiliate's month, its totals and top lists
 * (functions/back-office/programme.ts), as JSON and as CSV.
 */
import { reportGrants } from '../affiliates/routes';
import { everyone, type ConsoleRouteDefinition } from '../route';
import { validProgrammeQuery } from './schemas';

export const routes = [
  {
    id: 'ConsoleProgramme',
    method: 'GET',
    path: '/console/api/programme',
    roles: everyone,
    mutates: false,
    query: validProgrammeQuery,
    // What each affiliate's report reads; the sub-id rows are in the funnel table beside its figures.
    ...reportGrants,
  },
  {
    id: 'ConsoleProgrammeCsv',
    method: 'GET',
    path: '/console/api/programme.csv',
    roles: everyone,
    mutates: false,
    query: validProgrammeQuery,
    // What each affiliate's report reads; the sub-id rows are in the funnel table beside its figures.
    ...reportGrants,
  },
] as const satisfies readonly ConsoleRouteDefinition[];
