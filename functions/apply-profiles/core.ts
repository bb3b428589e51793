/**
 * The profile consumer: turns a batch of profile records into profile state,
 * exactly once, at one read and one conditional write per profile.
 *
 * Records are grouped by profile (stream order kept). For each profile: read
 * it, apply its records in order (skipping those already handled: by shard
 * sequence number for redelivery, by insert id for client re-sends), then
 * write it back on the condition that nobody changed it meanwhile; on a
 * conflict, read again and re-apply. Side effects that must precede the write
 * (timeline copies of a merge, timeline removal of a delete, rejections) are
 * idempotent, so a retry repeats them harmlessly.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import pLimit from 'p-limit';
import { applyProfileRecord, type ProfileChange } from '../shared/domain/directive-engine';
import type { Attributes } from '../shared/domain/attributes';
import {
  compareSequence,
  pruneRecent,
  remember,
  stateOf,
  toStored,
  whetherSeen,
  type ProfileState,
} from '../shared/domain/profile-state';
import { rejectionOf } from '../shared/domain/rejections';
import { partitionKey } from '../shared/domain/stream-record';
import { isBefore, type ProfileStore, type Rejection, type RejectionSink, type TimelineEntry, type TimelineStore } from '../shared/domain/timeline';
import type { StreamItem } from '../shared/stream/kinesis-batch';

export interface ApplyProfilesDeps {
  profiles: ProfileStore;
  timeline: TimelineStore;
  rejections: RejectionSink;
  now: () => Date;
  log: Pick<Logger, 'warn' | 'error'>;
}

/** Attributes beyond this (as JSON) would not fit the profile item; the record that grows them is rejected. */
export const MAX_ATTRIBUTES_BYTES = 300_000;
const MAX_CONFLICT_RETRIES = 5;
const PROFILES_IN_PARALLEL = 10;

export interface BatchOutcome {
  /**
   * The first sequence number of each profile that could not be written, or
   * was held back because it merges one that could not (lowest first): the
   * stream delivers again from the lowest, and skips what was applied.
   */
  failed: string[];
}

export function applyProfiles(deps: ApplyProfilesDeps) {
  return async (items: StreamItem[]): Promise<BatchOutcome> => {
    const groups = new Map<string, StreamItem[]>();
    for (const item of items) {
      const { app_id, profile_id } = item.envelope.record;
      const key = partitionKey(app_id, profile_id);
      groups.set(key, [...(groups.get(key) ?? []), item]);
    }
    const limit = pLimit(PROFILES_IN_PARALLEL);
    const failed: string[] = [];
    const failedProfiles = new Set<string>();
    for (const wave of mergeOrder(groups)) {
      await Promise.all(
        wave.map(([pk, group]) =>
          limit(async () => {
            // Merged now, a source whose records failed would be read without them, and the merge never repeated.
            const heldBy = sourcesOf(pk, group).find((source) => failedProfiles.has(source));
            if (heldBy !== undefined) {
              deps.log.warn('Profile held back: it merges a profile that could not be updated', { first_sequence_number: group[0].sequenceNumber, records: group.length });
              failedProfiles.add(pk);
              failed.push(group[0].sequenceNumber);
              return;
            }
            try {
              await applyGroup(deps, pk, group);
            } catch (error) {
              deps.log.error('Profile could not be updated; the stream will deliver its records again', {
                error,
                first_sequence_number: group[0].sequenceNumber,
                records: group.length,
              });
              failedProfiles.add(pk);
              failed.push(group[0].sequenceNumber);
            }
          }),
        ),
      );
    }
    return { failed: failed.sort(compareSequence) };
  };
}

/**
 * Profiles are applied in parallel, except that a profile merging another
 * one of the same batch waits for it: a visitor's push token set just before
 * sign-in must reach the merged profile. Waves: first the profiles that merge
 * nothing of this batch, then those whose sources are done (a cycle just goes).
 */
export function mergeOrder(groups: Map<string, StreamItem[]>): [string, StreamItem[]][][] {
  const pending = new Map(groups);
  const waves: [string, StreamItem[]][][] = [];
  while (pending.size > 0) {
    let wave = [...pending].filter(([pk, group]) => sourcesOf(pk, group).every((source) => !pending.has(source)));
    if (wave.length === 0) wave = [...pending];
    wave.forEach(([pk]) => pending.delete(pk));
    waves.push(wave);
  }
  return waves;
}

/** The profiles a group merges (its own key aside). */
function sourcesOf(pk: string, group: StreamItem[]): string[] {
  const appId = group[0].envelope.record.app_id;
  return group.flatMap((item) => ((item.envelope.record.urm_merge as string[] | undefined) ?? []).map((id) => partitionKey(appId, id))).filter((source) => source !== pk);
}

async function applyGroup(deps: ApplyProfilesDeps, pk: string, group: StreamItem[]): Promise<void> {
  const { app_id: appId, profile_id: profileId } = group[0].envelope.record;
  // Rejection rows this invocation wrote that no profile write has confirmed yet.
  let unconfirmed = new Map<string, Rejection>();
  try {
    for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt++) {
      // Eventually consistent first: the conditional write catches a stale read.
      const stored = await deps.profiles.get(pk, attempt > 0);
      const state = stateOf(stored, appId, profileId);
      const rejected = new Map<string, Rejection>();
      let deletedBy: StreamItem | undefined;
      let changed = false;
      for (const item of group) {
        const { record, received_at: receivedAt } = item.envelope;
        if (whetherSeen(state, item.shardId, item.sequenceNumber, record.urm_insert_id) !== 'new') continue;
        remember(state, item.shardId, item.sequenceNumber, record.urm_insert_id, receivedAt);
        changed = true;
        if (record.urm_delete_profile !== undefined) deletedBy = item;
        const reason = await applyOne(deps, pk, state, item);
        if (reason !== undefined) {
          deps.log.warn('Profile record rejected', { reason, sequence_number: item.sequenceNumber });
          const rejection = rejectionOf(item, reason, deps.now());
          // Kept before the profile is written, so a crash in between loses no rejection.
          await deps.rejections.put(rejection);
          rejected.set(item.sequenceNumber, rejection);
          unconfirmed.set(item.sequenceNumber, rejection);
        }
      }
      if (!changed) return;
      // A record rejected on a state that a concurrent writer then changed may apply now: its row goes before the
      // write, so the rows left are always those of the write that took (a crash after it leaves nothing to undo).
      const superseded = [...unconfirmed].filter(([seq]) => !rejected.has(seq)).map(([, r]) => r);
      if (superseded.length > 0) await deps.rejections.remove(superseded);
      unconfirmed = rejected;
      pruneRecent(state, deps.now());
      const version = (stored?.version ?? 0) + 1;
      if (await deps.profiles.put(toStored(pk, state, version), stored?.version)) {
        unconfirmed = new Map();
        // Events the event consumer wrote while the delete was under way (before it could see the mark).
        if (deletedBy && state.deleted?.seq === deletedBy.sequenceNumber) await removeTimelineUpTo(deps.timeline, pk, deletedBy);
        return;
      }
    }
    throw new Error(`profile changed concurrently ${MAX_CONFLICT_RETRIES} times in a row`);
  } catch (error) {
    if (unconfirmed.size > 0) await takeBackUnconfirmed(deps, pk, group, [...unconfirmed.values()]);
    throw error;
  }
}

/**
 * The group fails and comes again, maybe onto a changed state where a record
 * rejected now applies: rows of a write that did not take are taken back (a
 * write whose answer was lost may have taken: the profile says). If that fails
 * too, the rows stay; the retry rewrites those it confirms, under the same ids.
 */
async function takeBackUnconfirmed(deps: ApplyProfilesDeps, pk: string, group: StreamItem[], rows: Rejection[]): Promise<void> {
  try {
    const profile = await deps.profiles.get(pk, true);
    const last = group[group.length - 1];
    const applied = profile?.applied[last.shardId];
    if (applied !== undefined && compareSequence(applied, last.sequenceNumber) >= 0) return;
    await deps.rejections.remove(rows);
  } catch (error) {
    deps.log.error('Rejections of a failed profile write could not be taken back', { error, rejections: rows.length });
  }
}

/** Applies one record to the state; returns why it is rejected, if it is. */
async function applyOne(deps: ApplyProfilesDeps, pk: string, state: ProfileState, item: StreamItem): Promise<string | undefined> {
  const { record, received_at: receivedAt } = item.envelope;
  if (record.urm_delete_profile !== undefined) {
    await removeTimelineUpTo(deps.timeline, pk, item);
    state.attributes = {};
    state.exists = false;
    state.updatedAt = receivedAt;
    state.deleted = { shard: item.shardId, seq: item.sequenceNumber, at: receivedAt };
    return undefined;
  }
  const change = record as unknown as ProfileChange;
  const sourcePks = (change.urm_merge ?? []).map((id) => partitionKey(state.appId, id));
  const sources = new Map<string, Attributes>();
  if (sourcePks.length > 0) {
    // Consistent: an eventually consistent read can miss the source's write this merge waits for.
    const found = await deps.profiles.getMany(sourcePks, undefined, true);
    for (const id of change.urm_merge ?? []) {
      const source = found.get(partitionKey(state.appId, id));
      if (source?.exists) sources.set(id, JSON.parse(source.attrs) as Attributes);
    }
  }
  const result = applyProfileRecord(state.attributes, change, sources);
  if ('rejected' in result) return result.rejected;
  if (Buffer.byteLength(JSON.stringify(result.attributes)) > MAX_ATTRIBUTES_BYTES) {
    return `the profile's attributes would exceed ${MAX_ATTRIBUTES_BYTES} bytes`;
  }
  for (const id of sources.keys()) await copyTimeline(deps.timeline, partitionKey(state.appId, id), pk, item);
  state.attributes = result.attributes;
  state.exists = true;
  state.updatedAt = receivedAt;
  return undefined;
}

/** A merge makes the source's timeline part of the target's: its entries are copied, stamped with the merge's place in the stream. */
async function copyTimeline(timeline: TimelineStore, fromPk: string, toPk: string, item: StreamItem): Promise<void> {
  for await (const entries of timeline.all(fromPk)) {
    const copies: TimelineEntry[] = entries.map((entry) => ({
      ...entry,
      pk: toPk,
      shard: item.shardId,
      seq: item.sequenceNumber,
      merged_from: entry.merged_from ?? fromPk.slice(fromPk.indexOf('#') + 1),
    }));
    if (copies.length > 0) await timeline.write(copies);
  }
}

/** Removes the entries the delete covers: those before it in the stream (later events belong to the new profile). */
async function removeTimelineUpTo(timeline: TimelineStore, pk: string, item: StreamItem): Promise<void> {
  for await (const entries of timeline.all(pk)) {
    const covered = entries.filter((entry) => isBefore(entry, item.shardId, item.sequenceNumber, item.envelope.received_at));
    if (covered.length > 0) await timeline.remove(covered);
  }
}
