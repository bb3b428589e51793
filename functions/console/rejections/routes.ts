/** The records the stream consumers refused to apply, as the admin command line's `rejections` lists them. */
import { everyone, sessionTables, type ConsoleRouteDefinition } from '../route';
import { validRejectionsQuery } from './schemas';

export const routes = [
  {
    id: 'ConsoleListRejections',
    method: 'GET',
    path: '/console/api/rejections',
    roles: everyone,
    mutates: false,
    query: validRejectionsQuery,
    tables: { ...sessionTables, rejections: 'read' },
  },
] as const satisfies readonly ConsoleRouteDefinition[];
