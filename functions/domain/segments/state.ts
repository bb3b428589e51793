/**
 * A player's segment state (pk `p#<app_id>#<profile_id>`, sk `state`): the
 * figures the active segments need, the memberships, the exactly-once
 * bookkeeping and the outbox of membership events not yet on the stream.
 *
 * The counting boundary, exact by construction: for a figure kept under
 * `since` (needs.ts) and first kept when the state had applied up to `from`
 * (per shard), the consumer counts an event iff it was received at or after
 * `since` and is new to the state; the timeline counts an entry iff it was
 * received before `since` or the state had applied it by `from`. The two
 * sets never meet and together hold every event, except one received before
 * `since` that reaches the timeline only after the figure was completed from
 * it (a batch of the timeline consumer failing for longer than
 * PIPELINE_MARGIN_MS): that event is not counted. It is why completing waits
 * for `since + PIPELINE_MARGIN_MS`.
 */
import { createHash } from 'node:crypto';
import DecimalJs from 'decimal.js';
import type { Attributes } from '../attributes';
import { dayOf, mainAmount } from '../funnel';
import type { MoneySettings } from '../money-settings';
import { compareSequence } from '../profile-state';
import type { TimelineEntry } from '../timeline';
import { DUE_PARTS, segmentEnteredEvent, segmentExitedEvent, type SegmentDefinition } from './model';
import { versionSince, type Need } from './needs';

const Decimal = DecimalJs.clone({ precision: 200, toExpNeg: -300, toExpPos: 300 });
const plus = (a: string, b: string) => new Decimal(a).plus(b).toFixed();

/**
 * An event received before a figure's `since` is counted from the timeline:
 * the timeline consumer writes it within seconds (it retries a failed batch
 * for longer; that is the residual above). A figure is completed from the
 * timeline, and a backfill starts, no earlier than this after `since`.
 */
export const PIPELINE_MARGIN_MS = 60_000;

export interface Aggregate {
  since: string;
  /** The state's applied sequence numbers when the figure was first kept: the timeline counts those entries. */
  from: Record<string, string>;
  /** False until the timeline's part is added: until then no segment reads it. */
  complete: boolean;
  /** A count or a sum, exact decimal text. */
  total: string;
  /** By UTC day of the event's time, only the days the longest window reads. */
  days?: Record<string, string>;
  /** The latest urm_date_time (ISO), for recency. */
  last?: string;
}

export interface Membership {
  /** The definition's version it was last evaluated at. */
  v: number;
  member: boolean;
  /** When it last changed. */
  since: string;
  /** How many times it changed: with the segment and player, the event's insert id. */
  changes: number;
}

/** A membership event waiting for the stream. */
export interface SegmentChange {
  event: typeof segmentEnteredEvent | typeof segmentExitedEvent;
  segment_id: string;
  segment_name: string;
  segment_version: number;
  /** The moment of the change: the record's time, or the due moment for a timer. */
  at: string;
  insert_id: string;
}

/** A profile record the profile consumer had not applied when the player was kept: the state is due until it has. */
export interface Awaiting {
  shard: string;
  seq: string;
  /** The record's time: the moment of the change it makes. */
  at: string;
}

export interface PlayerState {
  app_id: string;
  profile_id: string;
  aggregates: Record<string, Aggregate>;
  memberships: Record<string, Membership>;
  /** Last counted sequence number per shard, and the insert ids counted recently (profile-state.ts). */
  applied: Record<string, string>;
  recent: Record<string, string>;
  /** The profile delete the figures were reset for (its sequence number). */
  reset_for?: string;
  outbox: SegmentChange[];
  /** The next moment time alone may change a membership. */
  next_at?: string;
  awaiting?: Awaiting;
  version: number;
  updated_at: string;
}

export function emptyPlayerState(appId: string, profileId: string): PlayerState {
  return { app_id: appId, profile_id: profileId, aggregates: {}, memberships: {}, applied: {}, recent: {}, outbox: [], version: 0, updated_at: '' };
}

/** An event as the counting reads it: a stream record, or a timeline entry's fields and attributes. */
export type CountedEvent = Record<string, unknown> & { event?: unknown; urm_date_time?: unknown };

/** What an event adds to a need: a decimal (1 for a count), or nothing. */
export function contributionOf(need: Need, event: CountedEvent, settings: MoneySettings): string | undefined {
  const name = event.event;
  if (typeof name !== 'string') return undefined;
  if ('name' in need.selector) {
    if (name !== need.selector.name) return undefined;
  } else if (!Object.hasOwn(settings.money_events, name) || settings.money_events[name] !== need.selector.money) return undefined;
  if (need.kind !== 'sum') return '1';
  if ('money' in need.selector) {
    const money = mainAmount(event, settings.currency);
    return 'amount' in money ? money.amount : undefined;
  }
  const value = need.property === undefined ? undefined : event[need.property];
  // String(number): the shortest text that reads back as the number, so 0.1 adds as 0.1.
  return typeof value === 'number' && Number.isFinite(value) ? new Decimal(String(value)).toFixed() : undefined;
}

/** Whether an event is one of the engine's own (never counted: a segment must not feed on its own events). */
export const isSegmentEvent = (name: unknown) => name === segmentEnteredEvent || name === segmentExitedEvent;

/** Adds an event to a figure; answers whether it counted. */
export function addEvent(aggregate: Aggregate, need: Need, event: CountedEvent, settings: MoneySettings): boolean {
  if (isSegmentEvent(event.event)) return false;
  const value = contributionOf(need, event, settings);
  const day = dayOf(event.urm_date_time);
  if (value === undefined || day === undefined) return false;
  const time = new Date(event.urm_date_time as string).toISOString();
  if (need.kind === 'last') {
    if (aggregate.last === undefined || time > aggregate.last) aggregate.last = time;
    return true;
  }
  aggregate.total = plus(aggregate.total, value);
  if (need.windowDays > 0) {
    aggregate.days ??= {};
    aggregate.days[day] = plus(aggregate.days[day] ?? '0', value);
  }
  return true;
}

export const newAggregate = (need: Need, applied: Record<string, string>): Aggregate => ({
  since: need.since,
  from: { ...applied },
  complete: false,
  total: '0',
});

/** Whether the consumer counts a stream record received at `receivedAt` into the figure (its newness is checked apart). */
export const countsLive = (aggregate: Aggregate, receivedAt: string) => receivedAt >= aggregate.since;

/** Whether the timeline's entry belongs to the figure's timeline part. */
export function countsFromTimeline(aggregate: Aggregate, entry: Pick<TimelineEntry, 'received_at' | 'shard' | 'seq'>): boolean {
  if (entry.received_at < aggregate.since) return true;
  const applied = aggregate.from[entry.shard];
  return applied !== undefined && compareSequence(entry.seq, applied) <= 0;
}

/** A timeline entry as an event (its fields and its attributes). */
export function eventOfEntry(entry: TimelineEntry): CountedEvent {
  return { ...(JSON.parse(entry.attrs) as Attributes), event: entry.event, urm_date_time: entry.urm_date_time };
}

/** Adds timeline entries to the figures being completed. */
export function addTimelineEntries(state: PlayerState, needs: Need[], entries: TimelineEntry[], settings: MoneySettings): void {
  for (const entry of entries) {
    if (isSegmentEvent(entry.event)) continue;
    let event: CountedEvent | undefined;
    for (const need of needs) {
      const aggregate = state.aggregates[need.key];
      if (!aggregate || aggregate.complete || !countsFromTimeline(aggregate, entry)) continue;
      event ??= eventOfEntry(entry);
      addEvent(aggregate, need, event, settings);
    }
  }
}

const DAY_MS = 86_400_000;
/** The first UTC day (YYYY-MM-DD) of a window of `days` days that ends today. */
export const windowStart = (now: Date, days: number) => new Date(Date.parse(now.toISOString().slice(0, 10)) - (days - 1) * DAY_MS).toISOString().slice(0, 10);

/** Drops the days no window reads any more. */
export function trimDays(aggregate: Aggregate, need: Need, now: Date): void {
  if (!aggregate.days) return;
  if (need.windowDays === 0) {
    delete aggregate.days;
    return;
  }
  const first = windowStart(now, need.windowDays);
  for (const day of Object.keys(aggregate.days)) if (day < first) delete aggregate.days[day];
}

/** The figure over the last `days` days (today included), or ever. */
export function figureOf(aggregate: Aggregate | undefined, now: Date, days?: number): string {
  if (!aggregate) return '0';
  if (days === undefined) return aggregate.total;
  const first = windowStart(now, days);
  let sum = new Decimal(0);
  for (const [day, value] of Object.entries(aggregate.days ?? {})) if (day >= first) sum = sum.plus(value);
  return sum.toFixed();
}

/** When a definition's backfill may start: its figures' `since` plus the pipeline's margin (an ISO time). */
export const backfillStartsAt = (definition: Pick<SegmentDefinition, 'backfill' | 'updated_at'>) =>
  new Date(Date.parse(versionSince(definition)) + PIPELINE_MARGIN_MS).toISOString();

/** A player's place among `parts` (size shards, due partitions): the same for the same player, spread evenly. */
export const spreadOf = (profileId: string, parts: number) => createHash('sha256').update(profileId, 'utf8').digest().readUInt32BE(0) % parts;

/** When the state is due (an outbox to send, or a profile record awaited, at once), and in which partition; undefined: never. */
export function dueOf(state: PlayerState): { due_part: string; due_at: string } | undefined {
  const at = state.outbox.length > 0 || state.awaiting ? state.updated_at : state.next_at;
  return at === undefined ? undefined : { due_part: `due#${spreadOf(state.profile_id, DUE_PARTS)}`, due_at: at };
}
