/**
 * The profile consumer: turns a batch of profile records into profile state,
 * exactly once, at one read and one conditional write per profile.
 *
 * Records are grouped by profile (stream order kept). For each profile: read
 * it, apply its records in order (skipping those already handled: by shard
 * sequence number for redelivery, by insert id for client re-sends), then
 * write it back on the condition that nobody changed it meanwhile; on a
 * conflict, read again and re-apply. Side effects that must precede the write
 * (timeline copies of a merge, timeline removal of a delete, rejections,
 * continuation records) are idempotent, so a retry repeats them harmlessly.
 * Timeline work is bounded per profile and invocation; what is left goes on
 * through a continuation record on the stream.
 */
import { createHash } from 'node:crypto';
import type { Logger } from '@aws-lambda-powertools/logger';
import pLimit from 'p-limit';
import { applyProfileRecord, type ProfileChange } from '../../domain/directive-engine';
import type { Attributes } from '../../domain/attributes';
import { playerCountChange } from '../../domain/figures';
import { compareSequence, pruneRecent, remember, stateOf, toStored, whetherSeen, type ProfileState, type StoredProfile } from '../../domain/profile-state';
import type { RecordWriter } from '../../domain/ingest';
import { rejectionOf } from '../../domain/rejections';
import { encodeEnvelope, partitionKey, type Continuation } from '../../domain/stream-record';
import { isBefore, type ProfileStore, type Rejection, type RejectionSink, type TimelineEntry, type TimelineStore } from '../../domain/timeline';
import type { StreamItem } from '../../stream/kinesis-batch';
import { indexSearchTerms, type SearchIndexing } from './search-terms';

export interface ApplyProfilesDeps {
  profiles: ProfileStore;
  timeline: TimelineStore;
  rejections: RejectionSink;
  /** The players' search index and each application's search setting (./search-terms.ts). */
  search: SearchIndexing;
  /** The ingestion stream: a delete's or merge's timeline work that does not fit one invocation continues through it. */
  stream: Pick<RecordWriter, 'write'>;
  now: () => Date;
  log: Pick<Logger, 'warn' | 'error'>;
  /** Timeline entries one invocation reads per profile (default TIMELINE_STEP_ITEMS). */
  timelineStepItems?: number;
}

/**
 * A profile's timeline may be long: a delete or merge reads at most this many
 * of its entries per invocation and leaves the rest to a continuation record,
 * so no invocation runs out of time on it (and fails the same way on every retry).
 */
export const TIMELINE_STEP_ITEMS = 2_000;

/** What one invocation may still do for a profile, and the work it leaves. */
interface Step {
  left: number;
  continuations: Continuation[];
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
  /** Records of the profiles written (continuation records, the consumer's own, aside). */
  counts: RecordCounts;
}

export interface RecordCounts {
  applied: number;
  /** Already handled (redelivered, or re-sent by the client): skipped. */
  duplicates: number;
  rejected: number;
}

export function applyProfiles(deps: ApplyProfilesDeps) {
  return async (items: StreamItem[]): Promise<BatchOutcome> => {
    const groups = new Map<string, StreamItem[]>();
    for (const item of items) {
      const { app_id, profile_id } = item.envelope.record;
      const key = partitionKey(app_id, profile_id);
      groups.set(key, [...(groups.get(key) ?? []), item]);
    }
    const firstReads = await readAll(deps, [...groups.keys()]);
    const limit = pLimit(PROFILES_IN_PARALLEL);
    const failed: string[] = [];
    const failedProfiles = new Set<string>();
    const counts: RecordCounts = { applied: 0, duplicates: 0, rejected: 0 };
    for (const wave of mergeOrder(groups)) {
      await Promise.all(
        wave.map(([pk, group]) =>
          limit(async () => {
            // Merged now, a source whose records failed would be read without them, and the merge never repeated.
            const heldBy = sourcesOf(pk, group).find((source) => failedProfiles.has(source));
            if (heldBy !== undefined) {
              deps.log.warn('Profile held back: it merges a profile that could not be updated', {
                first_sequence_number: group[0].sequenceNumber,
                records: group.length,
              });
              failedProfiles.add(pk);
              failed.push(group[0].sequenceNumber);
              return;
            }
            try {
              const done = await applyGroup(deps, pk, group, firstReads);
              counts.applied += done.applied;
              counts.duplicates += done.duplicates;
              counts.rejected += done.rejected;
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
    return { failed: failed.sort(compareSequence), counts };
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
    for (const [pk] of wave) pending.delete(pk);
    waves.push(wave);
  }
  return waves;
}

/** The profiles a group merges (its own key aside). */
function sourcesOf(pk: string, group: StreamItem[]): string[] {
  const appId = group[0].envelope.record.app_id;
  return group
    .flatMap((item) => ((item.envelope.record.urm_merge as string[] | undefined) ?? []).map((id) => partitionKey(appId, id)))
    .filter((source) => source !== pk);
}

/**
 * The batch's profiles as a first attempt reads them, in one BatchGetItem per 100 (a profile alone: its own Get, later):
 * eventually consistent, as every first read is, since the conditional write catches a stale one and the retry reads
 * consistently. With one record per profile that halves the calls of a Get and a Put per profile. When the batch read
 * fails, each profile reads its own, so trouble with one profile still fails only that profile.
 */
async function readAll(deps: ApplyProfilesDeps, pks: string[]): Promise<Map<string, StoredProfile | undefined> | undefined> {
  if (pks.length < 2) return undefined;
  try {
    const found = await deps.profiles.getMany(pks);
    return new Map(pks.map((pk) => [pk, found.get(pk)]));
  } catch (error) {
    deps.log.warn('The batch read of the profiles failed; each profile is read on its own', { error, profiles: pks.length });
    return undefined;
  }
}

/** What became of the group's records in the attempt whose write took. */
async function applyGroup(
  deps: ApplyProfilesDeps,
  pk: string,
  group: StreamItem[],
  firstReads?: Map<string, StoredProfile | undefined>,
): Promise<RecordCounts> {
  const { app_id: appId, profile_id: profileId } = group[0].envelope.record;
  // Rejection rows this invocation wrote that no profile write has confirmed yet.
  let unconfirmed = new Map<string, Rejection>();
  // One budget for the whole invocation: work that a conflict makes redo counts again.
  const step: Step = { left: deps.timelineStepItems ?? TIMELINE_STEP_ITEMS, continuations: [] };
  try {
    for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt++) {
      // Eventually consistent first (the batch's read, when there was one): the conditional write catches a stale read.
      const stored = attempt === 0 && firstReads?.has(pk) ? takeFirstRead(firstReads, pk) : await deps.profiles.get(pk, attempt > 0);
      const state = stateOf(stored, appId, profileId);
      const rejected = new Map<string, Rejection>();
      let deletedBy: StreamItem | undefined;
      let changed = false;
      let duplicates = 0;
      let handled = 0;
      step.continuations = [];
      for (const item of group) {
        const { record, received_at: receivedAt } = item.envelope;
        if (whetherSeen(state, item.shardId, item.sequenceNumber, record.urm_insert_id) !== 'new') {
          if (item.envelope.continues === undefined) duplicates++;
          continue;
        }
        remember(state, item.shardId, item.sequenceNumber, record.urm_insert_id, receivedAt);
        changed = true;
        if (item.envelope.continues === undefined) handled++;
        if (record.urm_delete_profile !== undefined) deletedBy = item;
        const reason = await applyOne(deps, pk, state, item, step);
        if (reason !== undefined) {
          deps.log.warn('Profile record rejected', { reason, sequence_number: item.sequenceNumber });
          const rejection = rejectionOf(item, reason, deps.now());
          // Kept before the profile is written, so a crash in between loses no rejection.
          await deps.rejections.put(rejection);
          rejected.set(item.sequenceNumber, rejection);
          unconfirmed.set(item.sequenceNumber, rejection);
        }
      }
      if (!changed) return { applied: 0, duplicates, rejected: 0 };
      // A record rejected on a state that a concurrent writer then changed may apply now: its row goes before the
      // write, so the rows left are always those of the write that took (a crash after it leaves nothing to undo).
      const superseded = [...unconfirmed].filter(([seq]) => !rejected.has(seq)).map(([, r]) => r);
      if (superseded.length > 0) await deps.rejections.remove(superseded);
      unconfirmed = rejected;
      // On the stream before the write: once the write took, the records that started the work are never applied again.
      await continueLater(deps, state, step.continuations);
      const deleteGoesOn = step.continuations.some((work) => work.op === 'delete' && work.seq === deletedBy?.sequenceNumber);
      pruneRecent(state, deps.now());
      // Before the write, like the rejections: a crash in between is repeated identically by the redelivery.
      await indexSearchTerms(deps.search, stored, state, group);
      const version = (stored?.version ?? 0) + 1;
      // A profile coming into being or deleted moves the application's players counter in the same write.
      if (await deps.profiles.put(toStored(pk, state, version), stored?.version, playerCountChange(stored, state))) {
        unconfirmed = new Map();
        // Events the event consumer wrote while the delete was under way (before it could see the mark); reads hide them meanwhile.
        // A failure here is only logged: the delete is applied, a retry would skip it, and reads hide what is left.
        if (deletedBy && state.deleted?.seq === deletedBy.sequenceNumber && !deleteGoesOn) {
          try {
            const rest = await sweepDeleted(deps, pk, { ...startOf('delete', deletedBy), pass: 2 }, step, 2);
            if (rest) await continueLater(deps, state, [rest]);
          } catch (error) {
            deps.log.error('A delete left part of its last sweep undone', { error, sequence_number: deletedBy.sequenceNumber });
          }
        }
        return { applied: handled - rejected.size, duplicates, rejected: rejected.size };
      }
    }
    throw new Error(`profile changed concurrently ${MAX_CONFLICT_RETRIES} times in a row`);
  } catch (error) {
    if (unconfirmed.size > 0) await takeBackUnconfirmed(deps, pk, group, [...unconfirmed.values()]);
    throw error;
  }
}

/** The batch's read of `pk`, let go of once taken: a batch holds up to 100 profiles of up to 400 KB. */
function takeFirstRead(firstReads: Map<string, StoredProfile | undefined>, pk: string): StoredProfile | undefined {
  const stored = firstReads.get(pk);
  firstReads.delete(pk);
  return stored;
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
async function applyOne(deps: ApplyProfilesDeps, pk: string, state: ProfileState, item: StreamItem, step: Step): Promise<string | undefined> {
  const { record, received_at: receivedAt, continues } = item.envelope;
  if (continues !== undefined) {
    await resume(deps, pk, state, continues, step);
    return undefined;
  }
  if (record.urm_delete_profile !== undefined) {
    // Pass 1 only: pass 2 must begin after the tombstone is written.
    const rest = await sweepDeleted(deps, pk, { ...startOf('delete', item), pass: 1 }, step, 1);
    if (rest) step.continuations.push(rest);
    state.attributes = {};
    state.exists = false;
    state.updatedAt = receivedAt;
    state.deleted = { shard: item.shardId, seq: item.sequenceNumber, at: receivedAt };
    return undefined;
  }
  // A stream record, not request input: POST /profiles checked it against its schema before it went on the stream.
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
  if (sources.size > 0) {
    const rest = await copyTimelines(deps, pk, { ...startOf('copy', item), sources: [...sources.keys()] }, state.appId, step);
    if (rest) step.continuations.push(rest);
  }
  state.attributes = result.attributes;
  state.exists = true;
  state.updatedAt = receivedAt;
  return undefined;
}

/** The timeline work a delete or merge record starts (step 0: the record itself). */
const startOf = (op: Continuation['op'], item: StreamItem): Continuation => ({
  op,
  shard: item.shardId,
  seq: item.sequenceNumber,
  at: item.envelope.received_at,
  step: 0,
});

/** Takes up a delete's or merge's timeline work where an earlier invocation left it, unless the profile moved on. */
async function resume(deps: ApplyProfilesDeps, pk: string, state: ProfileState, work: Continuation, step: Step): Promise<void> {
  let rest: Continuation | undefined;
  if (work.op === 'delete') {
    // A later delete has its own sweep; one whose write never took has nothing to sweep.
    if (state.deleted?.shard === work.shard && state.deleted.seq === work.seq) rest = await sweepDeleted(deps, pk, work, step, 2);
  } else {
    // Copies into a profile deleted since the merge would belong to nobody (its sweep removes those made already).
    const deletedSince =
      state.deleted !== undefined &&
      !isBefore({ shard: state.deleted.shard, seq: state.deleted.seq, received_at: state.deleted.at }, work.shard, work.seq, work.at);
    if (!deletedSince) rest = await copyTimelines(deps, pk, work, state.appId, step);
  }
  if (rest) step.continuations.push(rest);
}

/**
 * Removes the entries a delete covers (those before it in the stream: later
 * events belong to the new profile) within the step's budget; answers where
 * to go on if the walk did not end. Pass 2 walks again from the start.
 */
async function sweepDeleted(deps: ApplyProfilesDeps, pk: string, work: Continuation, step: Step, lastPass: 1 | 2): Promise<Continuation | undefined> {
  let { pass = 1, cursor } = work;
  for (;;) {
    if (step.left <= 0) return { ...work, step: work.step + 1, pass, cursor };
    const page = await deps.timeline.walk(pk, step.left, cursor);
    step.left -= page.entries.length;
    const covered = page.entries.filter((entry) => isBefore(entry, work.shard, work.seq, work.at));
    if (covered.length > 0) await deps.timeline.remove(covered);
    cursor = page.next;
    if (cursor) continue;
    if (pass >= lastPass) return undefined;
    pass = 2;
  }
}

/**
 * A merge makes the sources' timelines part of the target's: their entries
 * are copied, stamped with the merge's place in the stream, within the step's
 * budget; answers where to go on if the copy did not end.
 */
async function copyTimelines(deps: ApplyProfilesDeps, toPk: string, work: Continuation, appId: string, step: Step): Promise<Continuation | undefined> {
  const sources = [...(work.sources ?? [])];
  let cursor = work.cursor;
  while (sources.length > 0) {
    if (step.left <= 0) return { ...work, step: work.step + 1, sources, cursor };
    const page = await deps.timeline.walk(partitionKey(appId, sources[0]), step.left, cursor);
    step.left -= page.entries.length;
    const copies: TimelineEntry[] = page.entries.map((entry) => ({
      ...entry,
      pk: toPk,
      shard: work.shard,
      seq: work.seq,
      merged_from: entry.merged_from ?? sources[0],
    }));
    if (copies.length > 0) await deps.timeline.writeNew(copies);
    cursor = page.next;
    if (!cursor) sources.shift();
  }
  return undefined;
}

/**
 * Puts the work left on the stream under the profile's key, one record each.
 * The insert id names the work and its step, not the cursor: the copy that a
 * conflict or a retry puts there again is skipped like any re-sent record
 * (either copy is a sound place to go on from), so one chain goes on, not two.
 */
async function continueLater(deps: ApplyProfilesDeps, state: ProfileState, work: Continuation[]): Promise<void> {
  if (work.length === 0) return;
  const now = deps.now().toISOString();
  const entries = work.map((continues) => ({
    partitionKey: partitionKey(state.appId, state.profileId),
    data: encodeEnvelope({
      v: 1,
      kind: 'profile',
      received_at: now,
      record: {
        app_id: state.appId,
        profile_id: state.profileId,
        urm_date_time: now,
        urm_insert_id: continuationId(continues),
      },
      continues,
    }),
  }));
  const receipt = await deps.stream.write(entries);
  if (receipt.FailedRecordCount > 0) throw new Error(`the stream refused ${receipt.FailedRecordCount} continuation records`);
}

export function continuationId({ op, shard, seq, step }: Continuation): string {
  return `urm-continue-${createHash('sha256')
    .update(JSON.stringify([op, shard, seq, step]))
    .digest('base64url')
    .slice(0, 22)}`;
}
