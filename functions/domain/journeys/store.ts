/**
 * Where journeys live (the campaigns table): a head per journey (name, status,
 * current version), its immutable versions, and each player's instances with
 * their entry history. Instances move only by conditional writes on their
 * revision, so two runs (a redelivered batch, the timer, a crash's retry)
 * never both move one; the per-step occupancy moves in the same transaction,
 * so "players in it now" is exact without a scan.
 */
import { createHash } from 'node:crypto';
import type { JourneyDefinition } from './definition';
import type { JourneyInstance } from './engine';

export const journeyStatuses = ['draft', 'live', 'paused', 'archived'] as const;
export type JourneyStatus = (typeof journeyStatuses)[number];

/** Two characters at least: a one-letter id `h` would make instance keys collide with entry history keys. */
export const journeyIdPattern = '^[a-z0-9][a-z0-9_-]{1,63}$';

export interface JourneyHead {
  app_id: string;
  journey_id: string;
  name: string;
  status: JourneyStatus;
  /** The version a new entry takes. */
  version: number;
  /** Moves by one on each change of the head: a write names the revision it read. */
  revision: number;
  created_at: string;
  updated_at: string;
  /** The user (console) or `cli` that made the last change. */
  updated_by?: string;
}

export interface StoredJourneyVersion {
  app_id: string;
  journey_id: string;
  version: number;
  definition: JourneyDefinition;
  created_at: string;
  created_by?: string;
}

export interface StoredInstance {
  app_id: string;
  instance: JourneyInstance;
  /** 0: entered, its first run not yet recorded (the timer finishes it when the consumer died). Moves by one per move. */
  revision: number;
  /** When the timer looks at it: a wait's end, or a lease; absent when done. */
  due_at?: string;
  updated_at: string;
}

/** A player's entries into one journey (any version): what the re-entry rule reads. */
export interface EntryRecord {
  journey_id: string;
  entries: number;
  last_entered_at?: string;
  /** The entry in flight, if any: nobody is in one journey twice at once. */
  active_entry?: string;
}

export interface StepOccupancy {
  version: number;
  step_id: string;
  players: number;
}

export interface InstanceKey {
  app_id: string;
  profile_id: string;
  journey_id: string;
  entry_id: string;
}

/** An application keeps at most this many journeys (archived ones count): a list is one bounded read. */
export const JOURNEYS_PER_APP = 200;
/** A journey's versions as listed (newest first); older ones stay readable by number. */
export const VERSIONS_LISTED = 50;
/** A player's instances as listed on the player page. */
export const INSTANCES_LISTED = 100;
/** The due index's journey shards: a few partitions keep one hot minute of timers from throttling. */
export const TIMER_SHARDS = 4;
/** A done instance stays readable (what the player got) this long, then TTL removes it; the entry history stays. */
export const DONE_INSTANCE_DAYS = 180;

export const timerShardOf = (profileId: string, journeyId: string) =>
  createHash('sha256').update(`${journeyId}\n${profileId}`).digest().readUInt32BE(0) % TIMER_SHARDS;

export const keyOf = (stored: StoredInstance): InstanceKey => ({
  app_id: stored.app_id,
  profile_id: stored.instance.profileId,
  journey_id: stored.instance.journeyId,
  entry_id: stored.instance.entryId,
});

export interface JourneyStore {
  /** The application's journeys, newest change first; archived ones only when asked. Bounded by JOURNEYS_PER_APP. */
  list(appId: string, options?: { archived?: boolean }): Promise<JourneyHead[]>;
  get(appId: string, journeyId: string): Promise<JourneyHead | undefined>;
  count(appId: string): Promise<number>;
  /** Head and first version together; false when the id is taken. */
  create(head: JourneyHead, version: StoredJourneyVersion): Promise<boolean>;
  /** Writes the head if still at `expectedRevision`, with a new version in the same transaction when given; false otherwise. */
  update(head: JourneyHead, expectedRevision: number, version?: StoredJourneyVersion): Promise<boolean>;
  version(appId: string, journeyId: string, version: number): Promise<StoredJourneyVersion | undefined>;
  /** Newest first, at most `limit` (≤ VERSIONS_LISTED). */
  versions(appId: string, journeyId: string, limit?: number): Promise<StoredJourneyVersion[]>;
  /** How many players are at each step of each version now (steps with nobody left out). */
  occupancy(appId: string, journeyId: string): Promise<StepOccupancy[]>;

  /** The player's entry records, one per journey they ever entered (bounded by JOURNEYS_PER_APP). */
  history(appId: string, profileId: string): Promise<EntryRecord[]>;
  /** Instances by key, read consistently, in as few calls as possible. */
  instances(keys: InstanceKey[]): Promise<StoredInstance[]>;
  /** The player's instances, at most `limit` (≤ INSTANCES_LISTED), in key order. */
  playerInstances(appId: string, profileId: string, limit?: number): Promise<StoredInstance[]>;
  /**
   * Enters: the instance (revision 0, must not exist), the entry record (its `entries` still `seenEntries`, no entry
   * active) and the first step's occupancy, in one transaction; false when another entry won.
   */
  enter(stored: StoredInstance, seenEntries: number): Promise<boolean>;
  /**
   * Moves the instance to `next` if its revision is still `next.revision - 1`, moving occupancy from `fromStep` (the step
   * it was at) to its new step and, when it is done, closing the entry record; false on a conflict.
   */
  move(next: StoredInstance, fromStep: string): Promise<boolean>;
  /**
   * Claims `insertId` as the player's first deposit: true for the first deposit claimed and for that same one again
   * (a redelivery), false for any other.
   */
  claimFirstDeposit(appId: string, profileId: string, insertId: string): Promise<boolean>;
  /** Instances due by `until` in one timer shard, oldest first, a page at a time. */
  due(shard: number, until: string, limit: number, start?: Record<string, string>): Promise<{ instances: StoredInstance[]; next?: Record<string, string> }>;
  /** Moves a due instance's due time to `leaseUntil` if its revision and due time are still as read: one runner at a time. */
  lease(stored: StoredInstance, leaseUntil: string): Promise<boolean>;
}
