/**
 * Broadcasts in the console: list and read them with their progress and
 * counts, create a draft, and start, pause, resume or cancel one
 * (functions/back-office/broadcasts.ts). Sending is the scheduled sender's.
 */
import { editors, everyone, sessionTables, type ConsoleRouteDefinition } from '../route';
import { validCreateBroadcastBody } from './schemas';

const readTables = { ...sessionTables, campaigns: 'read' } as const;
// A new draft names a segment and a template (both read) and a topic of the application's.
const createTables = { ...sessionTables, campaigns: 'readwrite', segments: 'read', apps: 'read', auditLog: 'write' } as const;
const changeTables = { ...sessionTables, campaigns: 'readwrite', auditLog: 'write' } as const;
const action = <const Id extends string, const Verb extends string>(id: Id, verb: Verb) =>
  ({
    id,
    method: 'POST',
    path: `/console/api/broadcasts/{broadcast_id}/${verb}` as `/console/api/broadcasts/{broadcast_id}/${Verb}`,
    roles: editors,
    mutates: true,
    maxBodyBytes: 1024,
    tables: changeTables,
  }) as const;

export const routes = [
  { id: 'ConsoleListBroadcasts', method: 'GET', path: '/console/api/broadcasts', roles: everyone, mutates: false, tables: readTables },
  { id: 'ConsoleGetBroadcast', method: 'GET', path: '/console/api/broadcasts/{broadcast_id}', roles: everyone, mutates: false, tables: readTables },
  {
    id: 'ConsoleCreateBroadcast',
    method: 'POST',
    path: '/console/api/broadcasts',
    roles: editors,
    mutates: true,
    body: validCreateBroadcastBody,
    maxBodyBytes: 4 * 1024,
    tables: createTables,
  },
  action('ConsoleStartBroadcast', 'start'),
  action('ConsolePauseBroadcast', 'pause'),
  action('ConsoleResumeBroadcast', 'resume'),
  action('ConsoleCancelBroadcast', 'cancel'),
] as const satisfies readonly ConsoleRouteDefinition[];
