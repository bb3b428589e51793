/**
 * Every operation of the service: the HTTP routes and the stream consumers.
 * The CDK stack builds one Lambda function per entry, granting exactly the
 * access listed here; the local stack routes to the same handler modules.
 */
import type { TableName } from './resources';

export type Access = 'read' | 'write' | 'readwrite';

export interface FunctionDefinition {
  /** PascalCase id of the function in CDK (`<id>Function`). */
  id: string;
  /** Handler module, relative to the repository root; it exports `handler`. */
  entry: string;
  /** The tables the function touches, and how: this is its IAM grant. */
  tables: Partial<Record<TableName, Access>>;
  /** How the function touches the ingestion stream, if at all. */
  stream?: 'write';
}

export interface HttpOperation extends FunctionDefinition {
  method: 'GET' | 'POST';
  /** API path; `{name}` marks a path parameter. */
  path: string;
}

export type StreamRecordKind = 'profile' | 'event';

export interface StreamConsumer extends FunctionDefinition {
  /** Only stream records of these kinds reach the consumer (an event-source filter). */
  kinds: StreamRecordKind[];
  batchSize: number;
  /** Attempts after the first before a batch goes to the on-failure destination. */
  retryAttempts: number;
  /** Records older than this are sent to the on-failure destination unprocessed. */
  maxRecordAgeSeconds: number;
}

export const httpOperations: HttpOperation[] = [
  {
    id: 'IngestProfiles',
    method: 'POST',
    path: '/profiles',
    entry: 'functions/ingest-profiles/handler.ts',
    tables: { keys: 'read' },
    stream: 'write',
  },
  {
    id: 'IngestEvents',
    method: 'POST',
    path: '/events',
    entry: 'functions/ingest-events/handler.ts',
    tables: { keys: 'read' },
    stream: 'write',
  },
  {
    id: 'GetProfile',
    method: 'GET',
    path: '/profiles/{profile_id}',
    entry: 'functions/get-profile/handler.ts',
    tables: { keys: 'read', profiles: 'read' },
  },
  {
    id: 'ListProfileEvents',
    method: 'GET',
    path: '/profiles/{profile_id}/events',
    entry: 'functions/list-profile-events/handler.ts',
    tables: { keys: 'read', timeline: 'read' },
  },
];

export const streamConsumers: StreamConsumer[] = [
  {
    id: 'ApplyProfiles',
    entry: 'functions/apply-profiles/handler.ts',
    tables: { profiles: 'readwrite', timeline: 'readwrite', rejections: 'write' },
    kinds: ['profile'],
    batchSize: 100,
    retryAttempts: 10,
    maxRecordAgeSeconds: 24 * 60 * 60,
  },
  {
    id: 'RecordEvents',
    entry: 'functions/record-events/handler.ts',
    tables: { profiles: 'read', timeline: 'write', rejections: 'write' },
    kinds: ['event'],
    batchSize: 100,
    retryAttempts: 10,
    maxRecordAgeSeconds: 24 * 60 * 60,
  },
];
