/**
 * A player's way through one journey version, pure: given the instance's
 * state and one input (the entry, a timer falling due, an event), the new
 * state and what to do. Instant steps (branch, split, send, set attributes,
 * exit) run in one go until a wait or the end. Nothing here is random or reads
 * a clock: the same state and input give the same actions with the same ids,
 * so a redelivered input is made harmless by a claim per id (the runtime's).
 */
import { createHash } from 'node:crypto';
import type { AttributeValue } from '../attributes';
import type { MoneySettings } from '../money-settings';
import { localMoment, playerTimeZone, type MessagingSettings, type Purpose } from '../send-gate';
import type { Condition } from '../segments/condition';
import { attributeHolds, evaluate, type Facts } from '../segments/evaluate';
import { segmentEnteredEvent } from '../segments/model';
import { durationMs, journeyLimits, stepById, weekdays, type Entry, type JourneyDefinition, type PropertyCondition, type SendStep } from './definition';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** One version of a journey, as the runtime loads it for an instance. */
export interface JourneyVersion {
  journeyId: string;
  version: number;
  definition: JourneyDefinition;
}

/** An event as the journey reads it: the runtime maps a stream record to this. */
export interface JourneyEvent {
  name: string;
  /** The record's urm_insert_id: unique per event, the same on redelivery. */
  insertId: string;
  /** When the service received it (ISO 8601): waits count from here. */
  at: string;
  /** Its properties (not the record's own fields). */
  properties: Record<string, unknown>;
  /** Set by the runtime when the funnel's ledger takes this event as the player's first deposit. */
  firstDeposit?: boolean;
}

export type ExitReason = 'completed' | 'exit_step' | 'converted' | 'holdout' | 'step_bound';

export interface JourneyInstance {
  journeyId: string;
  /** The version entered: a player in flight keeps it whatever the journey becomes. */
  version: number;
  profileId: string;
  entryId: string;
  /** The step the player is at (a wait while waiting). */
  stepId: string;
  enteredAt: string;
  /** When the current wait ends (a wait_for_event's timeout). */
  waitingUntil?: string;
  /** The event a wait_for_event step waits for, and the entry property it must match. */
  waitingFor?: { event: string; match?: { property: string; value: unknown } };
  entryProperties: Record<string, unknown>;
  /** How many times each acting step has acted in this entry: a loop's later pass gets ids of its own. */
  visits?: Record<string, number>;
  done?: { reason: ExitReason; at: string };
}

export type JourneyInput = { kind: 'entered'; event: JourneyEvent } | { kind: 'timer'; at: string } | { kind: 'event'; event: JourneyEvent };

/** What a branch and wait_until need: the segment facts on the player now, and the application's settings. */
export interface JourneyFacts extends Facts {
  messaging: MessagingSettings | undefined;
  money: MoneySettings;
}

export type JourneyAction =
  | { send: { stepId: string; channel: SendStep['channel']; template_id: string; purpose: Purpose; topic?: string; messageId: string } }
  | { set_attributes: { stepId: string; attributes: Record<string, AttributeValue>; insertId: string } }
  | { timer: { at: string } }
  | { exit: ExitReason }
  | { converted: { event: string; insertId: string; at: string } }
  | { holdout: { stepId: string } };

export interface Advanced {
  instance: JourneyInstance;
  actions: JourneyAction[];
}

const digest = (parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('base64url');

/** An entry's id: one per (journey, player, triggering event or API request), the same on redelivery. */
export function entryIdOf(journeyId: string, profileId: string, sourceId: string): string {
  return digest(['entry', journeyId, profileId, sourceId]).slice(0, 22);
}

/** A send's message id: derived from (journey, version, player, entry, step) and, past a loop's first pass, the pass. */
export function messageIdOf(instance: JourneyInstance, stepId: string, pass = 1): string {
  const parts = [instance.journeyId, instance.version, instance.profileId, instance.entryId, stepId];
  return `urm-j-${digest(pass === 1 ? parts : [...parts, pass]).slice(0, 32)}`;
}

/** A split's bucket in basis points (0–9999): fixed per journey, player and step, whatever the entry or version. */
export function splitBucket(journeyId: string, profileId: string, stepId: string): number {
  return (
    createHash('sha256')
      .update(JSON.stringify(['split', journeyId, profileId, stepId]))
      .digest()
      .readUInt32BE(0) % 10_000
  );
}

/** The fields of a record that are not the event's own properties. */
const recordFields = new Set(['app_id', 'profile_id', 'event', 'urm_insert_id', 'urm_date_time']);

/** The event's properties, for templates and matching: the record's own fields and urm_ directives left out. */
export function eventProperties(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !recordFields.has(key) && !key.startsWith('urm_')));
}

/** A new instance at the first step, not yet run: advance it with `{ kind: 'entered' }`. */
export function newInstance(journey: JourneyVersion, profileId: string, event: JourneyEvent): JourneyInstance {
  return {
    journeyId: journey.journeyId,
    version: journey.version,
    profileId,
    entryId: entryIdOf(journey.journeyId, profileId, event.insertId),
    stepId: journey.definition.steps[0].id,
    enteredAt: event.at,
    entryProperties: event.properties,
  };
}

// ---- entry --------------------------------------------------------------

/** What the runtime knows of a player's past entries into the journey (any version). */
export interface EntryHistory {
  entries: number;
  lastEnteredAt?: string;
  /** In the journey now: nobody enters twice at once, whatever the rule. */
  active: boolean;
}

/** The re-entry rule: once ever (the default), once per N days (from the last entry), or every time. */
export function mayEnter(definition: JourneyDefinition, history: EntryHistory, now: Date): boolean {
  if (history.active) return false;
  if (history.entries === 0) return true;
  const rule = definition.reentry ?? 'once';
  if (rule === 'once') return false;
  if (rule === 'always') return true;
  if (history.lastEnteredAt === undefined) return true;
  return now.getTime() - Date.parse(history.lastEnteredAt) >= rule.every_days * DAY_MS;
}

const isDeposit = (name: string, money: MoneySettings) => Object.hasOwn(money.money_events, name) && money.money_events[name] === 'deposit';

function propertyHolds(condition: PropertyCondition, properties: Record<string, unknown>): boolean {
  const value = Object.hasOwn(properties, condition.property) ? properties[condition.property] : undefined;
  return attributeHolds({ attribute: condition.property, op: condition.op, value: condition.value }, value as AttributeValue | null | undefined);
}

/** Whether a stream event is the journey's entry trigger. An API journey is entered only through its trigger operation. */
export function entryMatches(entry: Entry, event: JourneyEvent, money: MoneySettings): boolean {
  if ('event' in entry) return event.name === entry.event && (entry.where ?? []).every((condition) => propertyHolds(condition, event.properties));
  if ('first_deposit' in entry) return event.firstDeposit === true && isDeposit(event.name, money);
  if ('segment_entered' in entry) return event.name === segmentEnteredEvent && event.properties.segment_id === entry.segment_entered;
  return false;
}

/** Whether the player enters on this trigger: the trigger (an event, or the API), the audience, the re-entry rule. */
export function shouldEnter(definition: JourneyDefinition, trigger: JourneyEvent | 'api', history: EntryHistory, facts: JourneyFacts): boolean {
  const triggered = trigger === 'api' ? 'api' in definition.entry : entryMatches(definition.entry, trigger, facts.money);
  return triggered && mayEnter(definition, history, facts.now) && (definition.audience === undefined || evaluate(definition.audience as Condition, facts));
}

// ---- local time ---------------------------------------------------------

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
/** Minutes since 1970-01-01 00:00 of the local wall clock at `at`. */
const wallMinutes = (at: number, zone: string) => {
  const local = localMoment(new Date(at), zone);
  return dayNumber(local.day) * 1440 + local.minutes;
};

/**
 * The first instant whose local wall clock in `zone` reads `target` (minutes since 1970 on the wall clock), or, when
 * a daylight-saving jump skips that time, the instant of the jump.
 */
function instantOfWall(target: number, zone: string): number {
  let candidate = target * MINUTE_MS;
  let previous = candidate;
  for (let step = 0; step < 4; step++) {
    const off = target - wallMinutes(candidate, zone);
    if (off === 0) return candidate;
    previous = candidate;
    candidate += off * MINUTE_MS;
  }
  // Skipped: the wall clock jumped over the target between the two instants the steps swung between.
  let [lo, hi] = [Math.min(previous, candidate), Math.max(previous, candidate)];
  while (hi - lo > MINUTE_MS) {
    const mid = lo + Math.floor((hi - lo) / (2 * MINUTE_MS)) * MINUTE_MS;
    if (wallMinutes(mid, zone) < target) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** The next moment after `from` when the local time in `zone` is `localTime` (HH:MM) on one of `days` (any day when absent). */
export function nextLocalTime(from: Date, localTime: string, zone: string, days?: readonly string[]): Date {
  const minutes = Number(localTime.slice(0, 2)) * 60 + Number(localTime.slice(3, 5));
  const today = dayNumber(localMoment(from, zone).day);
  for (let offset = 0; offset <= 8; offset++) {
    const day = today + offset;
    const weekday = weekdays[(new Date(day * DAY_MS).getUTCDay() + 6) % 7];
    if (days !== undefined && !days.includes(weekday)) continue;
    const at = instantOfWall(day * 1440 + minutes, zone);
    if (at > from.getTime()) return new Date(at);
  }
  throw new Error(`no ${localTime} in ${zone} within 8 days of ${dayOf(today)}`);
}

// ---- advancing ----------------------------------------------------------

/**
 * The instance after one input, and what to do. A done instance, a stale or early timer, an event nobody waits for
 * and an `entered` for an instance already started change nothing and do nothing.
 */
export function advance(journey: JourneyVersion, instance: JourneyInstance, input: JourneyInput, facts: JourneyFacts): Advanced {
  if (journey.journeyId !== instance.journeyId || journey.version !== instance.version) {
    throw new Error(`instance of ${instance.journeyId} v${instance.version} advanced with ${journey.journeyId} v${journey.version}`);
  }
  const unchanged = { instance, actions: [] };
  if (instance.done) return unchanged;
  const { definition } = journey;
  const next = structuredClone(instance);
  const actions: JourneyAction[] = [];
  const waiting = instance.waitingUntil !== undefined;

  if (input.kind === 'entered') {
    if (waiting) return unchanged;
    run(journey, next, Date.parse(input.event.at), facts, actions);
    return { instance: next, actions };
  }

  if (input.kind === 'timer') {
    if (!waiting || Date.parse(input.at) < Date.parse(instance.waitingUntil!)) return unchanged;
    const step = stepById(definition, instance.stepId);
    // From the due time, not the timer's lateness: a wait's successor waits count from when the wait ended.
    const at = Date.parse(instance.waitingUntil!);
    clearWait(next);
    if (step.type === 'wait_for_event') next.stepId = step.on_timeout;
    else if (step.type === 'wait' || step.type === 'wait_until') {
      if (step.next === undefined) return finish(next, 'completed', at, actions);
      next.stepId = step.next;
    }
    run(journey, next, at, facts, actions);
    return { instance: next, actions };
  }

  const { event } = input;
  const at = Date.parse(event.at);
  if (isGoal(definition, instance, event, facts.money)) {
    actions.push({ converted: { event: event.name, insertId: event.insertId, at: event.at } });
    clearWait(next);
    return finish(next, 'converted', at, actions);
  }
  const awaited = instance.waitingFor;
  if (awaited === undefined || event.name !== awaited.event) return unchanged;
  if (awaited.match !== undefined && !sameValue(event.properties[awaited.match.property], awaited.match.value)) return unchanged;
  const step = stepById(definition, instance.stepId);
  if (step.type !== 'wait_for_event') return unchanged;
  clearWait(next);
  next.stepId = step.on_event;
  run(journey, next, at, facts, actions);
  return { instance: next, actions };
}

const sameValue = (a: unknown, b: unknown) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

/** The goal: its event, or a deposit, after the entry (never the entry's own event) and within its window. */
function isGoal(definition: JourneyDefinition, instance: JourneyInstance, event: JourneyEvent, money: MoneySettings): boolean {
  const goal = definition.goal ?? {};
  const matches = goal.event !== undefined ? event.name === goal.event : isDeposit(event.name, money);
  if (!matches || entryIdOf(instance.journeyId, instance.profileId, event.insertId) === instance.entryId) return false;
  return goal.within_days === undefined || Date.parse(event.at) - Date.parse(instance.enteredAt) < goal.within_days * DAY_MS;
}

function clearWait(instance: JourneyInstance): void {
  delete instance.waitingUntil;
  delete instance.waitingFor;
}

function finish(instance: JourneyInstance, reason: ExitReason, at: number, actions: JourneyAction[]): Advanced {
  instance.done = { reason, at: new Date(at).toISOString() };
  actions.push({ exit: reason });
  return { instance, actions };
}

function wait(instance: JourneyInstance, until: number, actions: JourneyAction[]): void {
  instance.waitingUntil = new Date(until).toISOString();
  actions.push({ timer: { at: instance.waitingUntil } });
}

/** A pass count for an acting step: 1 the first time in this entry. */
function visit(instance: JourneyInstance, stepId: string): number {
  const pass = (instance.visits?.[stepId] ?? 0) + 1;
  instance.visits = { ...instance.visits, [stepId]: pass };
  return pass;
}

/**
 * Runs from the instance's step at `at` until a wait or the end. checkJourney refuses loops that never wait, so a run
 * visits each step at most once; the bound only guards a definition that skipped the check.
 */
function run(journey: JourneyVersion, instance: JourneyInstance, at: number, facts: JourneyFacts, actions: JourneyAction[]): Advanced {
  const { definition } = journey;
  for (let taken = 0; taken <= journeyLimits.steps; taken++) {
    const step = stepById(definition, instance.stepId);
    let next: string | undefined;
    switch (step.type) {
      case 'wait':
        wait(instance, at + durationMs(step.duration), actions);
        return { instance, actions };
      case 'wait_until': {
        const zone = playerTimeZone(facts.attributes, facts.messaging);
        wait(instance, nextLocalTime(new Date(at), step.local_time, zone, step.weekdays).getTime(), actions);
        return { instance, actions };
      }
      case 'wait_for_event': {
        const property = step.match_entry_property;
        instance.waitingFor = {
          event: step.event,
          ...(property === undefined ? {} : { match: { property, value: instance.entryProperties[property] ?? null } }),
        };
        wait(instance, at + durationMs(step.timeout), actions);
        return { instance, actions };
      }
      case 'branch':
        next = evaluate(step.condition, facts) ? step.then : step.else;
        break;
      case 'split': {
        const bucket = splitBucket(journey.journeyId, instance.profileId, step.id);
        let upper = 0;
        for (const branch of step.branches) {
          upper += branch.percent * 100;
          if (bucket < upper) {
            next = branch.next;
            break;
          }
        }
        if (next === undefined) {
          actions.push({ holdout: { stepId: step.id } });
          return finish(instance, 'holdout', at, actions);
        }
        break;
      }
      case 'send': {
        const pass = visit(instance, step.id);
        actions.push({
          send: {
            stepId: step.id,
            channel: step.channel,
            template_id: step.template_id,
            purpose: step.purpose ?? 'marketing',
            ...(step.topic === undefined ? {} : { topic: step.topic }),
            messageId: messageIdOf(instance, step.id, pass),
          },
        });
        next = step.next;
        break;
      }
      case 'set_attributes': {
        const pass = visit(instance, step.id);
        actions.push({ set_attributes: { stepId: step.id, attributes: step.attributes, insertId: messageIdOf(instance, step.id, pass) } });
        next = step.next;
        break;
      }
      case 'exit':
        return finish(instance, 'exit_step', at, actions);
    }
    if (next === undefined) return finish(instance, 'completed', at, actions);
    instance.stepId = next;
  }
  return finish(instance, 'step_bound', at, actions);
}
