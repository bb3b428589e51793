/**
 * Segments: what an operator defines (a named condition over a player) and
 * how its membership is kept, shared by the console, the command line, the
 * integrator API, the segment consumer, its timer and the backfill.
 *
 * Where things live (the `segments` table, functions/manifest/resources.ts):
 * - a definition: pk `app#<app_id>`, sk `seg#<segment_id>`;
 * - its size, in shards summed on read: pk `app#<app_id>`, sk `size#<segment_id>#<0..SIZE_SHARDS-1>`, `n`;
 * - a member: pk `m#<app_id>#<segment_id>`, sk `<profile_id>`, `entered_at`;
 * - while a definition is `backfilling` it carries `due_part` `backfill` and
 *   `due_at` (when its backfill may start), so the timer finds it in the
 *   `due` index;
 * - a player's state (the aggregates the defined segments need, its
 *   memberships, the exactly-once bookkeeping, the next moment time alone may
 *   change a membership): pk `p#<app_id>#<profile_id>`, sk `state`; while such
 *   a moment is pending it carries `due_part` (`due#<0..DUE_PARTS-1>`) and
 *   `due_at` (ISO), the keys of the sparse `due` index the timer reads.
 * A membership change writes the player's state, the member item and a size
 * shard in one transaction, so it happens once; its event
 * (`urm_segment_entered` / `urm_segment_exited`) goes on the stream through
 * the state's outbox, under an insert id derived from the change.
 */
import type { Condition } from './condition';

export const segmentStatuses = ['backfilling', 'ready', 'archived'] as const;
export type SegmentStatus = (typeof segmentStatuses)[number];

/** Ids are chosen by the operator (or made from the name): lower-case, stable, safe in a URL and a key. */
export const segmentIdPattern = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** An application's segments that are not archived: each costs work on every record, so they are bounded. */
export const MAX_ACTIVE_SEGMENTS = 100;

export const segmentEnteredEvent = 'urm_segment_entered';
export const segmentExitedEvent = 'urm_segment_exited';

export interface SegmentDefinition {
  app_id: string;
  segment_id: string;
  name: string;
  description?: string;
  condition: Condition;
  /** Starts at 1; every change of the condition makes the next, which is backfilled before it is used. */
  version: number;
  status: SegmentStatus;
  created_at: string;
  updated_at: string;
  /** Who made the last change (an enterprise user's email, or `admin-cli`). */
  updated_by: string;
  /**
   * The backfill of `version`: players evaluated so far of the application's total when it began; `cursor`, the
   * last profile id done (where the engine's next run goes on from).
   */
  backfill?: { started_at: string; done: number; total?: number; finished_at?: string; cursor?: string };
}

export const definitionPk = (appId: string) => `app#${appId}`;
export const definitionSk = (segmentId: string) => `seg#${segmentId}`;
export const SIZE_SHARDS = 10;
export const sizeSk = (segmentId: string, shard: number) => `size#${segmentId}#${shard}`;
export const memberPk = (appId: string, segmentId: string) => `m#${appId}#${segmentId}`;
export const statePk = (appId: string, profileId: string) => `p#${appId}#${profileId}`;
export const stateSk = 'state';
export const DUE_PARTS = 8;
/** The `due` partition of backfilling definitions. */
export const BACKFILL_DUE_PART = 'backfill';

export interface SegmentMember {
  profile_id: string;
  entered_at: string;
}

/** The definitions and what the console, the command line and the API read of membership. */
export interface SegmentStore {
  /** The application's segments, archived ones only when asked. */
  list(appId: string, options?: { archived?: boolean }): Promise<SegmentDefinition[]>;
  get(appId: string, segmentId: string): Promise<SegmentDefinition | undefined>;
  /** False when the id is taken. */
  create(definition: SegmentDefinition): Promise<boolean>;
  /** Writes the definition if its stored version is still `expectedVersion` (a changed condition bumps it); false otherwise. */
  put(definition: SegmentDefinition, expectedVersion: number): Promise<boolean>;
  /** Members, in profile id order, a page at a time. */
  members(appId: string, segmentId: string, limit: number, cursor?: string): Promise<{ members: SegmentMember[]; next?: string }>;
  /** The exact size (the size shards summed). */
  size(appId: string, segmentId: string): Promise<number>;
}
