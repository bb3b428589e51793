/**
 * Segments in the console: define, change and archive them, read their size,
 * backfill progress and members, and export the members as CSV
 * (functions/back-office/segments.ts). Membership is the segment engine's.
 */
import { editors, everyone, sessionTables, type ConsoleRouteDefinition } from '../route';
import { validCreateSegment, validEditSegment, validListSegmentsQuery, validSegmentCsvQuery, validSegmentMembersQuery } from './schemas';

// A change reads the application's definitions (references, cycles, the active bound) and writes one.
const changeTables = { ...sessionTables, segments: 'readwrite', auditLog: 'write' } as const;
// Members with their names and emails (profiles) and money (funnel, in the main currency of apps).
const memberTables = { ...sessionTables, segments: 'read', profiles: 'read', funnel: 'read', apps: 'read' } as const;

export const routes = [
  {
    id: 'ConsoleListSegments',
    method: 'GET',
    path: '/console/api/segments',
    roles: everyone,
    mutates: false,
    query: validListSegmentsQuery,
    tables: { ...sessionTables, segments: 'read' },
  },
  {
    id: 'ConsoleGetSegment',
    method: 'GET',
    path: '/console/api/segments/{segment_id}',
    roles: everyone,
    mutates: false,
    tables: { ...sessionTables, segments: 'read' },
  },
  {
    id: 'ConsoleCreateSegment',
    method: 'POST',
    path: '/console/api/segments',
    roles: editors,
    mutates: true,
    body: validCreateSegment,
    maxBodyBytes: 32 * 1024,
    tables: changeTables,
  },
  {
    id: 'ConsoleEditSegment',
    method: 'POST',
    path: '/console/api/segments/{segment_id}',
    roles: editors,
    mutates: true,
    body: validEditSegment,
    maxBodyBytes: 32 * 1024,
    tables: changeTables,
  },
  {
    id: 'ConsoleArchiveSegment',
    method: 'POST',
    path: '/console/api/segments/{segment_id}/archive',
    roles: editors,
    mutates: true,
    maxBodyBytes: 1024,
    tables: changeTables,
  },
  {
    id: 'ConsoleSegmentMembers',
    method: 'GET',
    path: '/console/api/segments/{segment_id}/members',
    roles: everyone,
    mutates: false,
    query: validSegmentMembersQuery,
    tables: memberTables,
  },
  {
    id: 'ConsoleSegmentMembersCsv',
    method: 'GET',
    path: '/console/api/segments/{segment_id}/members.csv',
    roles: everyone,
    mutates: false,
    query: validSegmentCsvQuery,
    tables: memberTables,
  },
] as const satisfies readonly ConsoleRouteDefinition[];
