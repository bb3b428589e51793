/**
 * Keeping players' segment state, over its ports: what the consumer, the timer
 * and the backfill share (one way to do it). For a set of players of one
 * application: read their states and profiles (consistent BatchGets), bring
 * each state's figures up to the needs (the timeline where due), take the
 * step (engine.ts), write what changed (state, member items and size shards
 * in one transaction; a state alone in one conditional Put; nothing when
 * nothing changed), then put the outbox's events on the stream and clear it.
 *
 * Exactly once: the write is conditioned on the state's version, and it
 * carries the counted records' sequence numbers and the events to send. A
 * crash after it leaves the outbox on a state that is due now: the timer (or
 * the next record) sends it again under the same insert ids and times, which
 * the timeline keeps once.
 */
import pLimit from 'p-limit';
import type { Attributes } from '../attributes';
import type { RecordWriter } from '../ingest';
import type { MoneySettings } from '../money-settings';
import { compareSequence, type StoredProfile } from '../profile-state';
import { encodeEnvelope, partitionKey } from '../stream-record';
import type { ProfileStore, TimelineStore } from '../timeline';
import type { StreamItem } from '../../stream/kinesis-batch';
import { changedFrom, prepare, step, toWrite, type MemberChange } from './engine';
import type { Facts } from './evaluate';
import { statePk, type SegmentDefinition } from './model';
import { needsOf, type Need } from './needs';
import { addTimelineEntries, emptyPlayerState, isSegmentEvent, type Awaiting, type PlayerState } from './state';

/** Where the engine keeps players' state and membership (the segments table). */
export interface SegmentStateStore {
  /** States by pk, read consistently, in as few calls as possible. */
  states(pks: string[]): Promise<Map<string, PlayerState>>;
  /**
   * Writes the state if its stored version is still `expectedVersion` (0: it must not exist), with, in the same
   * transaction, each change's member item (put or delete) and a size shard; false on a conflict.
   */
  write(state: PlayerState, expectedVersion: number, members: MemberChange[]): Promise<boolean>;
  /** Empties the outbox of the state as written (its version), making the next version; false if it changed meanwhile. */
  clearOutbox(state: PlayerState): Promise<boolean>;
  /** States due by `until` in one due partition, a page at a time. */
  due(part: number, until: string, limit: number, start?: Record<string, string>): Promise<{ pks: string[]; next?: Record<string, string> }>;
  /** Definitions whose backfill may start by `until` (the `backfill` due partition). */
  backfillsDue(until: string, limit: number): Promise<{ app_id: string; segment_id: string }[]>;
  /** Saves a backfill's progress (and `ready` when it ends) if the definition is still at `version` and backfilling. */
  saveBackfill(definition: SegmentDefinition): Promise<boolean>;
}

export interface KeeperDeps {
  states: SegmentStateStore;
  profiles: Pick<ProfileStore, 'getMany'>;
  timeline: Pick<TimelineStore, 'walk'>;
  stream: Pick<RecordWriter, 'write'>;
  /** The application's money settings; undefined for an unknown application. */
  settings: (appId: string) => Promise<MoneySettings | undefined>;
  now: () => Date;
  suppressed?: Facts['suppressed'];
  /** Default PROFILE_WAIT_MS; and how to wait (tests pass their own). */
  profileWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface KeepCounts {
  players: number;
  /** States written (with or without a membership change). */
  written: number;
  changes: number;
  events: number;
  /** Records counted into some figure. */
  counted: number;
  /** Timeline entries read to complete figures. */
  timeline_read: number;
  conflicts: number;
}

export const zeroCounts = (): KeepCounts => ({ players: 0, written: 0, changes: 0, events: 0, counted: 0, timeline_read: 0, conflicts: 0 });
export function addCounts(into: KeepCounts, more: KeepCounts): KeepCounts {
  for (const key of Object.keys(into) as (keyof KeepCounts)[]) into[key] += more[key];
  return into;
}

export interface PlayerWork {
  profileId: string;
  /** Its new records in stream order; none for the timer and the backfill. */
  items: StreamItem[];
  /** The moment of a change when there are no records (the due moment); default now. */
  at?: string;
  /** Its last profile record the profile consumer had not applied when the wait ran out. */
  awaiting?: Awaiting;
}

/** How long a batch waits, in all, for the profile consumer to apply the profile records it carries. */
export const PROFILE_WAIT_MS = 10_000;

const TIMELINE_PAGE = 1_000;
/** Players of a batch or page kept at once: each is a few calls in a row (a timeline walk, a write, the stream). */
const PLAYERS_IN_PARALLEL = 10;
const PROFILE_FIELDS: (keyof StoredProfile)[] = ['pk', 'attrs', 'exists', 'applied', 'deleted'];

/**
 * Keeps the players; answers the first sequence number of each player whose
 * records must come again (a conflict, a failure), and counts.
 */
export async function keepPlayers(
  deps: KeeperDeps,
  appId: string,
  definitions: SegmentDefinition[],
  players: PlayerWork[],
  options: { backfilling?: string; preloaded?: Map<string, PlayerState> } = {},
): Promise<{ failed: string[]; counts: KeepCounts }> {
  const counts = zeroCounts();
  const failed: string[] = [];
  const active = definitions.filter((definition) => definition.status !== 'archived');
  const settings = await deps.settings(appId);
  if (active.length === 0 || !settings || players.length === 0) return { failed, counts };
  const needs = needsOf(active);
  const pks = players.map((player) => statePk(appId, player.profileId));
  const preloaded = options.preloaded;
  const missing = preloaded ? pks.filter((pk) => !preloaded.has(pk)) : pks;
  const [read, profiles] = await Promise.all([
    missing.length > 0 ? deps.states.states(missing) : Promise.resolve(new Map<string, PlayerState>()),
    deps.profiles.getMany(
      players.map((player) => partitionKey(appId, player.profileId)),
      PROFILE_FIELDS,
      true,
    ),
  ]);
  await awaitProfiles(deps, appId, players, profiles);
  const limit = pLimit(PLAYERS_IN_PARALLEL);
  const keepPlayer = async (player: PlayerWork) => {
    counts.players++;
    const pk = statePk(appId, player.profileId);
    const stored = preloaded?.get(pk) ?? read.get(pk) ?? emptyPlayerState(appId, player.profileId);
    const profile = profiles.get(partitionKey(appId, player.profileId));
    const first = player.items[0]?.sequenceNumber;
    const pending = player.items.filter((item) => item.envelope.kind === 'profile' && !profileApplied(profile, item)).at(-1);
    const awaiting = pending && { shard: pending.shardId, seq: pending.sequenceNumber, at: timeOf(pending) };
    try {
      const done = await keepOne(deps, stored, profile, { ...player, awaiting }, active, needs, settings, options.backfilling);
      addCounts(counts, done);
      if (done.conflicts > 0 && first !== undefined) failed.push(first);
    } catch (error) {
      if (first === undefined) throw error;
      failed.push(first);
    }
  };
  // Every player's work settles before a failure is thrown: a write in flight must not land after its retry's read.
  const outcomes = await Promise.allSettled(players.map((player) => limit(() => keepPlayer(player))));
  const thrown = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (thrown) throw thrown.reason;
  return { failed: failed.sort(compareSequence), counts };
}

function profileApplied(profile: Pick<StoredProfile, 'applied'> | undefined, at: { shardId: string; sequenceNumber: string }): boolean {
  const applied = profile?.applied[at.shardId];
  return applied !== undefined && compareSequence(applied, at.sequenceNumber) >= 0;
}

/**
 * The profile consumer runs beside this one and is usually a little behind: a profile record it has not applied
 * yet is waited for, re-reading those profiles with backoff, for at most `profileWaitMs`. Failing the batch instead
 * would spend the mapping's bounded retries, and after a crash (a backlog for both) drop the player's records.
 */
async function awaitProfiles(deps: KeeperDeps, appId: string, players: PlayerWork[], profiles: Map<string, StoredProfile>): Promise<void> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let budget = deps.profileWaitMs ?? PROFILE_WAIT_MS;
  for (let delay = 100; ; delay = Math.min(delay * 2, 1_000)) {
    const waiting = players
      .map((player) => partitionKey(appId, player.profileId))
      .filter((pk, i) => players[i].items.some((item) => item.envelope.kind === 'profile' && !profileApplied(profiles.get(pk), item)));
    if (waiting.length === 0 || delay > budget) return;
    budget -= delay;
    await sleep(delay);
    for (const [pk, profile] of await deps.profiles.getMany(waiting, PROFILE_FIELDS, true)) profiles.set(pk, profile);
  }
}

async function keepOne(
  deps: KeeperDeps,
  stored: PlayerState,
  profile: StoredProfile | undefined,
  player: PlayerWork,
  definitions: SegmentDefinition[],
  needs: Map<string, Need>,
  settings: MoneySettings,
  backfilling: string | undefined,
): Promise<KeepCounts> {
  const counts = zeroCounts();
  const now = deps.now();
  const { state, toComplete } = prepare(stored, needs, profile?.deleted?.seq, now);
  if (toComplete.length > 0) counts.timeline_read += await completeFromTimeline(deps, state, toComplete, settings);
  const attributes: Attributes = profile?.exists ? (JSON.parse(profile.attrs) as Attributes) : {};
  // The engine's own events are never a change's moment: one put on the stream late may follow a newer record.
  const last = player.items.findLast((item) => !(item.envelope.kind === 'event' && isSegmentEvent(item.envelope.record.event)));
  let at = last ? timeOf(last) : (player.at ?? now.toISOString());
  // Evaluated now on the profile as it is, and again (the state is due) once the record is applied, at its time.
  const awaited = state.awaiting;
  if (player.awaiting) state.awaiting = player.awaiting;
  else if (awaited && profileApplied(profile, { shardId: awaited.shard, sequenceNumber: awaited.seq })) {
    delete state.awaiting;
    if (!last) at = awaited.at;
  }
  const outcome = step({ state, definitions, needs, attributes, items: player.items, settings, now, at, backfilling, suppressed: deps.suppressed });
  counts.counted = outcome.counted;
  let current = stored;
  if (changedFrom(stored, outcome.state)) {
    const next = toWrite(stored, outcome.state, now);
    if (!(await deps.states.write(next, stored.version, outcome.members))) {
      counts.conflicts++;
      return counts;
    }
    current = next;
    counts.written++;
    counts.changes += outcome.members.length;
  }
  counts.events += await deliver(deps, current);
  return counts;
}

/** The record's time (the moment of its change); its arrival when that cannot be read. */
function timeOf(item: StreamItem): string {
  const time = Date.parse(String(item.envelope.record.urm_date_time));
  return Number.isNaN(time) ? item.envelope.received_at : new Date(time).toISOString();
}

/** Adds the timeline's part of the figures (a walk of the player's whole timeline), marks them complete; answers entries read. */
async function completeFromTimeline(deps: KeeperDeps, state: PlayerState, needs: Need[], settings: MoneySettings): Promise<number> {
  let read = 0;
  let cursor: Record<string, string> | undefined;
  do {
    const page = await deps.timeline.walk(partitionKey(state.app_id, state.profile_id), TIMELINE_PAGE, cursor);
    read += page.entries.length;
    addTimelineEntries(state, needs, page.entries, settings);
    cursor = page.next;
  } while (cursor);
  for (const need of needs) {
    const aggregate = state.aggregates[need.key];
    aggregate.complete = true;
    aggregate.from = {};
  }
  return read;
}

/** Puts the state's outbox on the stream, then clears it; answers how many events went. */
export async function deliver(deps: Pick<KeeperDeps, 'states' | 'stream' | 'now'>, state: PlayerState): Promise<number> {
  if (state.outbox.length === 0) return 0;
  const receivedAt = deps.now().toISOString();
  const receipt = await deps.stream.write(
    state.outbox.map((change) => ({
      partitionKey: partitionKey(state.app_id, state.profile_id),
      data: encodeEnvelope({
        v: 1,
        kind: 'event',
        received_at: receivedAt,
        record: {
          app_id: state.app_id,
          profile_id: state.profile_id,
          event: change.event,
          urm_date_time: change.at,
          urm_insert_id: change.insert_id,
          segment_id: change.segment_id,
          segment_name: change.segment_name,
          segment_version: change.segment_version,
        },
      }),
    })),
  );
  if (receipt.FailedRecordCount > 0) throw new Error(`the stream refused ${receipt.FailedRecordCount} segment events`);
  // Lost to a concurrent write: that writer carried the outbox and sends it again, under the same insert ids.
  await deps.states.clearOutbox(state);
  return state.outbox.length;
}
