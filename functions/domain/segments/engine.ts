/**
 * One step of a player's segment state, pure: the figures brought up to the
 * active segments' needs, the new records counted (each once), every segment
 * that may be evaluated evaluated in dependency order, the membership changes
 * and their events (the outbox), and the next moment time alone may change
 * anything. The consumer, the timer and the backfill all take this step
 * (keeper.ts does their I/O).
 */
import { createHash } from 'node:crypto';
import type { Attributes } from '../attributes';
import type { MoneySettings } from '../money-settings';
import { pruneRecent, remember, whetherSeen } from '../profile-state';
import type { StreamItem } from '../../stream/kinesis-batch';
import { referencedSegments } from './condition';
import { evaluate, nextChange, type Facts } from './evaluate';
import { segmentEnteredEvent, segmentExitedEvent, type SegmentDefinition } from './model';
import { needKeysOf, type Need } from './needs';
import { addEvent, contributionOf, countsLive, isSegmentEvent, newAggregate, PIPELINE_MARGIN_MS, trimDays, type CountedEvent, type PlayerState } from './state';

/**
 * A state write is one transaction: the state and, per change, a member item and a size shard. DynamoDB takes 100
 * items per transaction; changes beyond this wait for the next step (the state is due at once).
 */
export const MAX_CHANGES_PER_WRITE = 49;

export interface MemberChange {
  segment_id: string;
  member: boolean;
  at: string;
}

/** Whether the record may change a segment of the application: a profile record, or an event some need counts. */
export function mayMatter(item: StreamItem, needs: Map<string, Need>, settings: MoneySettings): boolean {
  const { kind, record } = item.envelope;
  if (kind === 'profile') return true;
  if (kind !== 'event' || isSegmentEvent(record.event)) return false;
  for (const need of needs.values()) if (contributionOf(need, record as CountedEvent, settings) !== undefined) return true;
  return false;
}

/**
 * The state with a figure for each need (a new one, live-only, where the
 * stored one is missing or was kept under another `since`), none for needs no
 * longer there, and all figures reset after a profile delete. Answers the
 * needs whose timeline part is due to be added now.
 */
export function prepare(stored: PlayerState, needs: Map<string, Need>, deletedSeq: string | undefined, now: Date): { state: PlayerState; toComplete: Need[] } {
  const state = structuredClone(stored);
  if (deletedSeq !== undefined && state.reset_for !== deletedSeq) {
    state.aggregates = {};
    state.reset_for = deletedSeq;
  }
  for (const key of Object.keys(state.aggregates)) if (!needs.has(key)) delete state.aggregates[key];
  const toComplete: Need[] = [];
  for (const need of needs.values()) {
    const kept = state.aggregates[need.key];
    if (!kept || kept.since !== need.since) state.aggregates[need.key] = newAggregate(need, state.applied);
    if (!state.aggregates[need.key].complete && now.getTime() >= Date.parse(need.since) + PIPELINE_MARGIN_MS) toComplete.push(need);
  }
  return { state, toComplete };
}

/** Segments before those whose condition names them (the use case refuses cycles; one would just be cut). */
export function dependencyOrder(definitions: SegmentDefinition[]): SegmentDefinition[] {
  const byId = new Map(definitions.map((definition) => [definition.segment_id, definition]));
  const ordered: SegmentDefinition[] = [];
  const seen = new Set<string>();
  const visit = (definition: SegmentDefinition) => {
    if (seen.has(definition.segment_id)) return;
    seen.add(definition.segment_id);
    for (const id of referencedSegments(definition.condition)) {
      const referenced = byId.get(id);
      if (referenced) visit(referenced);
    }
    ordered.push(definition);
  };
  for (const definition of definitions) visit(definition);
  return ordered;
}

/** The insert id of a membership event: the same for the same change, whoever puts it on the stream and how often. */
export function changeInsertId(segmentId: string, profileId: string, change: number): string {
  return `urm-seg-${createHash('sha256')
    .update(JSON.stringify([segmentId, profileId, change]))
    .digest('base64url')
    .slice(0, 22)}`;
}

export interface StepInput {
  /** Already prepared (and completed from the timeline where it could be). */
  state: PlayerState;
  definitions: SegmentDefinition[];
  needs: Map<string, Need>;
  attributes: Attributes;
  /** The player's new stream records, in stream order (none for the timer and the backfill). */
  items: StreamItem[];
  settings: MoneySettings;
  now: Date;
  /** The moment a change happens at: the last record's time, or the due moment. */
  at: string;
  /** The backfill of this segment: evaluated at its new version, its changes silent. */
  backfilling?: string;
  suppressed?: Facts['suppressed'];
}

export interface StepOutcome {
  state: PlayerState;
  members: MemberChange[];
  /** Records counted into some figure. */
  counted: number;
}

export function step(input: StepInput): StepOutcome {
  const { state, needs, settings, now } = input;
  let counted = 0;
  for (const item of input.items) {
    const { record, received_at: receivedAt } = item.envelope;
    if (item.envelope.kind !== 'event' || isSegmentEvent(record.event)) continue;
    const matching = [...needs.values()].filter((need) => contributionOf(need, record as CountedEvent, settings) !== undefined);
    if (matching.length === 0) continue;
    if (whetherSeen(state, item.shardId, item.sequenceNumber, record.urm_insert_id) !== 'new') continue;
    remember(state, item.shardId, item.sequenceNumber, record.urm_insert_id, receivedAt);
    for (const need of matching) {
      const aggregate = state.aggregates[need.key];
      if (countsLive(aggregate, receivedAt)) addEvent(aggregate, need, record as CountedEvent, settings);
    }
    counted++;
  }
  for (const need of needs.values()) trimDays(state.aggregates[need.key], need, now);

  const facts: Facts = {
    attributes: input.attributes,
    aggregates: state.aggregates,
    now,
    member: (id) => state.memberships[id]?.member ?? false,
    ...(input.suppressed ? { suppressed: input.suppressed } : {}),
  };
  const active = new Set(input.definitions.map((definition) => definition.segment_id));
  for (const id of Object.keys(state.memberships)) if (!active.has(id)) delete state.memberships[id];

  const members: MemberChange[] = [];
  let next: number | undefined;
  let deferred = false;
  for (const definition of dependencyOrder(input.definitions)) {
    const id = definition.segment_id;
    const kept = state.memberships[id];
    const silent = input.backfilling === id;
    const evaluable = definition.status === 'ready' || silent || (definition.status === 'backfilling' && kept?.v === definition.version);
    if (!evaluable || !needKeysOf(definition).every((key) => state.aggregates[key]?.complete)) continue;
    const moment = nextChange(definition.condition, facts);
    if (moment !== undefined && (next === undefined || moment < next)) next = moment;
    const member = evaluate(definition.condition, facts);
    const was = kept?.member ?? false;
    if (member === was) {
      if (kept?.v !== definition.version)
        state.memberships[id] = { v: definition.version, member, since: kept?.since ?? input.at, changes: kept?.changes ?? 0 };
      continue;
    }
    if (members.length >= MAX_CHANGES_PER_WRITE) {
      deferred = true;
      continue;
    }
    const changes = (kept?.changes ?? 0) + 1;
    state.memberships[id] = { v: definition.version, member, since: input.at, changes };
    members.push({ segment_id: id, member, at: input.at });
    if (!silent) {
      state.outbox.push({
        event: member ? segmentEnteredEvent : segmentExitedEvent,
        segment_id: id,
        segment_name: definition.name,
        segment_version: definition.version,
        at: input.at,
        insert_id: changeInsertId(id, state.profile_id, changes),
      });
    }
  }
  if (deferred) next = now.getTime();
  if (next === undefined) delete state.next_at;
  else state.next_at = new Date(next).toISOString();
  return { state, members, counted };
}

/** What of the state is worth a write (not its version or time). */
const substance = (state: PlayerState) =>
  JSON.stringify([
    state.aggregates,
    state.memberships,
    state.applied,
    state.recent,
    state.reset_for ?? null,
    state.outbox,
    state.next_at ?? null,
    state.awaiting ?? null,
  ]);

export function changedFrom(stored: PlayerState, state: PlayerState): boolean {
  return substance(stored) !== substance(state);
}

/** The state as it is written: recent ids pruned, the next version. */
export function toWrite(stored: PlayerState, state: PlayerState, now: Date): PlayerState {
  pruneRecent(state, now);
  return { ...state, version: stored.version + 1, updated_at: now.toISOString() };
}
