/**
 * Journeys in the console: draft, edit (a new version), publish, pause,
 * resume and archive them, read one with its steps' occupancy and versions,
 * and a player's journeys (functions/back-office/journeys.ts). Running them
 * is the runtime's (functions/consumers/run-journeys).
 */
import { journeyLimits } from '../../domain/journeys/definition';
import { editors, everyone, sessionTables, type ConsoleRouteDefinition } from '../route';
import { validCreateJourney, validEditJourney, validListJourneysQuery } from './schemas';

// Heads, versions and the per-step counters all live in the campaigns table (pk app#…, jv#…).
const readTables = { ...sessionTables, campaigns: 'read' } as const;
// A change reads the head and writes it (with a new version) conditionally on its revision.
const changeTables = { ...sessionTables, campaigns: 'readwrite', auditLog: 'write' } as const;
// The definition with its name and id, as JSON.
const bodyBytes = journeyLimits.definitionBytes + 4 * 1024;

export const routes = [
  {
    id: 'ConsoleListJourneys',
    method: 'GET',
    path: '/console/api/journeys',
    roles: everyone,
    mutates: false,
    query: validListJourneysQuery,
    tables: readTables,
  },
  {
    id: 'ConsoleGetJourney',
    method: 'GET',
    path: '/console/api/journeys/{journey_id}',
    roles: everyone,
    mutates: false,
    tables: readTables,
  },
  {
    id: 'ConsoleCreateJourney',
    method: 'POST',
    path: '/console/api/journeys',
    roles: editors,
    mutates: true,
    body: validCreateJourney,
    maxBodyBytes: bodyBytes,
    tables: changeTables,
  },
  {
    id: 'ConsoleEditJourney',
    method: 'POST',
    path: '/console/api/journeys/{journey_id}',
    roles: editors,
    mutates: true,
    body: validEditJourney,
    maxBodyBytes: bodyBytes,
    tables: changeTables,
  },
  {
    id: 'ConsolePublishJourney',
    method: 'POST',
    path: '/console/api/journeys/{journey_id}/publish',
    roles: editors,
    mutates: true,
    maxBodyBytes: 1024,
    tables: changeTables,
  },
  {
    id: 'ConsolePauseJourney',
    method: 'POST',
    path: '/console/api/journeys/{journey_id}/pause',
    roles: editors,
    mutates: true,
    maxBodyBytes: 1024,
    tables: changeTables,
  },
  {
    id: 'ConsoleResumeJourney',
    method: 'POST',
    path: '/console/api/journeys/{journey_id}/resume',
    roles: editors,
    mutates: true,
    maxBodyBytes: 1024,
    tables: changeTables,
  },
  {
    id: 'ConsoleArchiveJourney',
    method: 'POST',
    path: '/console/api/journeys/{journey_id}/archive',
    roles: editors,
    mutates: true,
    maxBodyBytes: 1024,
    tables: changeTables,
  },
  {
    id: 'ConsolePlayerJourneys',
    method: 'GET',
    path: '/console/api/players/{profile_id}/journeys',
    roles: everyone,
    mutates: false,
    // The player's instances and entry records (ji#…), and each journey's head and version for its name and steps.
    tables: readTables,
  },
] as const satisfies readonly ConsoleRouteDefinition[];
