/**
 * A condition evaluated on what is known of a player (attributes, kept
 * figures, other memberships) at a moment, and the next moment at which time
 * alone could change the answer. Pure.
 */
import DecimalJs from 'decimal.js';
import type { AttributeValue, Attributes } from '../attributes';
import { activeRgStatus, EMAIL_SUPPRESSED_ATTRIBUTE, hasAddress } from '../send-gate';
import { ngrOf } from '../commission';
import type { AttributeCondition, Condition, EventCondition, LeafCondition, LifecycleCondition, ReachableCondition, RecencyCondition } from './condition';
import { leafNeeds, leavesOf, needKey } from './needs';
import { figureOf, type Aggregate } from './state';

const Decimal = DecimalJs.clone({ precision: 200, toExpNeg: -300, toExpPos: 300 });
const DAY_MS = 86_400_000;

export type Channel = ReachableCondition['reachable'];

export interface Facts {
  attributes: Attributes;
  aggregates: Record<string, Aggregate>;
  /** Whether the player is a member of another segment (evaluated before, in dependency order). */
  member: (segmentId: string) => boolean;
  now: Date;
  /**
   * The send gate's suppression list (bounces, complaints, unsubscribes) for a channel's address. None exists yet:
   * absent means nobody is suppressed. The gate fills it when it keeps one.
   */
  suppressed?: (channel: Channel, attributes: Attributes) => boolean;
}

export function evaluate(condition: Condition, facts: Facts): boolean {
  if ('all' in condition) return condition.all.every((child) => evaluate(child, facts));
  if ('any' in condition) return condition.any.some((child) => evaluate(child, facts));
  if ('not' in condition) return !evaluate(condition.not, facts);
  return evaluateLeaf(condition, facts);
}

function evaluateLeaf(leaf: LeafCondition, facts: Facts): boolean {
  if ('attribute' in leaf) return attributeHolds(leaf, facts.attributes[leaf.attribute]);
  if ('events' in leaf) return compareFigure(eventFigure(leaf, facts), leaf.op, leaf.value);
  if ('last' in leaf) return recencyHolds(leaf, facts);
  if ('lifecycle' in leaf) return lifecycleHolds(leaf, facts);
  if ('reachable' in leaf) return reachable(leaf.reachable, facts);
  return facts.member(leaf.segment);
}

// ---- attributes ---------------------------------------------------------

const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;
const asTime = (value: unknown) => (typeof value === 'string' && dateTime.test(value) ? Date.parse(value) : NaN);

/** Equal as a person means it: date-times as the same moment, otherwise the same type and value. */
function same(a: AttributeValue, b: unknown): boolean {
  const [x, y] = [asTime(a), asTime(b)];
  if (!Number.isNaN(x) && !Number.isNaN(y)) return x === y;
  return a === b;
}

/** Negative, zero or positive; undefined when the two do not compare (other types). */
function order(a: AttributeValue, b: unknown): number | undefined {
  const [x, y] = [asTime(a), asTime(b)];
  if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

/**
 * An absent attribute (or `null`, which `urm_unset` leaves) holds only `not_exists`, `not_equals` and `not_in`.
 * An array attribute holds `equals`/`in` when one of its elements does, and `contains` when it has the value
 * (every value, for a list); a string holds `contains` when the value is part of it.
 */
export function attributeHolds(leaf: AttributeCondition, value: AttributeValue | null | undefined): boolean {
  const present = value !== undefined && value !== null;
  const elements = (v: AttributeValue): AttributeValue[] => (Array.isArray(v) ? v : [v]);
  const list = Array.isArray(leaf.value) ? leaf.value : [leaf.value];
  switch (leaf.op) {
    case 'exists':
      return present;
    case 'not_exists':
      return !present;
    case 'equals':
      return present && elements(value).some((element) => same(element, leaf.value));
    case 'not_equals':
      return !present || !elements(value).some((element) => same(element, leaf.value));
    case 'in':
      return present && elements(value).some((element) => list.some((item) => same(element, item)));
    case 'not_in':
      return !present || !elements(value).some((element) => list.some((item) => same(element, item)));
    case 'contains':
      if (!present) return false;
      if (typeof value === 'string') return list.every((item) => typeof item === 'string' && value.includes(item));
      return Array.isArray(value) && list.every((item) => value.some((element) => same(element, item)));
    case 'starts_with':
      return typeof value === 'string' && typeof leaf.value === 'string' && value.startsWith(leaf.value);
    default: {
      if (!present || Array.isArray(value)) return false;
      const sign = order(value, leaf.value);
      if (sign === undefined) return false;
      return leaf.op === 'lt' ? sign < 0 : leaf.op === 'lte' ? sign <= 0 : leaf.op === 'gt' ? sign > 0 : sign >= 0;
    }
  }
}

// ---- figures ------------------------------------------------------------

export function compareFigure(figure: string, op: EventCondition['op'], value: number | string): boolean {
  const sign = new Decimal(figure).comparedTo(String(value));
  switch (op) {
    case 'equals':
      return sign === 0;
    case 'not_equals':
      return sign !== 0;
    case 'lt':
      return sign < 0;
    case 'lte':
      return sign <= 0;
    case 'gt':
      return sign > 0;
    default:
      return sign >= 0;
  }
}

function eventFigure(leaf: EventCondition, facts: Facts): string {
  const [need] = leafNeeds(leaf);
  return figureOf(facts.aggregates[need.key], facts.now, leaf.within_days);
}

const moneyTotal = (facts: Facts, kind: 'count' | 'sum', money: 'deposit' | 'withdrawal' | 'bet' | 'win' | 'bonus') =>
  figureOf(facts.aggregates[needKey(kind, { money })], facts.now);

function lifecycleHolds(leaf: LifecycleCondition, facts: Facts): boolean {
  switch (leaf.lifecycle) {
    case 'ftd':
      return new Decimal(moneyTotal(facts, 'count', 'deposit')).gte(1);
    case 'deposit_count':
      return compareFigure(moneyTotal(facts, 'count', 'deposit'), leaf.op!, leaf.value!);
    case 'lifetime_deposits':
      return compareFigure(moneyTotal(facts, 'sum', 'deposit'), leaf.op!, leaf.value!);
    case 'lifetime_withdrawals':
      return compareFigure(moneyTotal(facts, 'sum', 'withdrawal'), leaf.op!, leaf.value!);
    default: {
      const ngr = ngrOf({ bets: moneyTotal(facts, 'sum', 'bet'), wins: moneyTotal(facts, 'sum', 'win'), bonuses: moneyTotal(facts, 'sum', 'bonus') });
      return compareFigure(ngr.toFixed(), leaf.op!, leaf.value!);
    }
  }
}

/** The latest time of the events, or undefined for never. */
const lastOf = (leaf: RecencyCondition, facts: Facts) => facts.aggregates[needKey('last', leaf.last)]?.last;
const daysOf = (leaf: RecencyCondition) => ('within_days' in leaf ? leaf.within_days : leaf.not_within_days);

/** Within N days: the last event is less than N × 24 h before now; at exactly N × 24 h it is not within any more. */
function recencyHolds(leaf: RecencyCondition, facts: Facts): boolean {
  const last = lastOf(leaf, facts);
  const within = last !== undefined && facts.now.getTime() - Date.parse(last) < daysOf(leaf) * DAY_MS;
  return 'within_days' in leaf ? within : !within;
}

// ---- reachability -------------------------------------------------------

/** RG status none: absent, `none`, or a cool-off or exclusion whose `urm_rg_until` has passed (the send gate's rule). */
export function rgNone(attributes: Attributes, now: Date): boolean {
  return activeRgStatus(attributes, now) === undefined;
}

const filled = (value: unknown) => typeof value === 'string' && value.trim().length > 0;

/** The send gate's static checks for a marketing message (functions/domain/send-gate.ts): RG, consent, suppression, address or device. */
export function reachable(channel: Channel, facts: Facts): boolean {
  const a = facts.attributes;
  if (facts.suppressed?.(channel, a)) return false;
  if (!rgNone(a, facts.now)) return false;
  if (channel === 'push') return a.urm_receives_notifications === true && hasAddress(a, 'push', undefined);
  if (channel === 'email') return a.urm_consent_email === true && !filled(a[EMAIL_SUPPRESSED_ATTRIBUTE]) && hasAddress(a, 'email', undefined);
  return filled(a.phone) && a.urm_consent_sms === true;
}

// ---- time ---------------------------------------------------------------

const utcMidnight = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * The earliest moment after `now` at which time alone could change the condition: a counted day leaving a window
 * (at UTC midnight), a last event growing N days old, a cool-off or exclusion ending. Undefined: none.
 */
export function nextChange(condition: Condition, facts: Facts): number | undefined {
  const now = facts.now.getTime();
  let next: number | undefined;
  const consider = (moment: number) => {
    if (moment > now && (next === undefined || moment < next)) next = moment;
  };
  for (const leaf of leavesOf(condition)) {
    if ('events' in leaf && leaf.within_days !== undefined) {
      const [need] = leafNeeds(leaf);
      for (const [day, value] of Object.entries(facts.aggregates[need.key]?.days ?? {})) {
        if (value !== '0') consider(utcMidnight(day) + leaf.within_days * DAY_MS);
      }
    } else if ('last' in leaf) {
      const last = lastOf(leaf, facts);
      if (last !== undefined) consider(Date.parse(last) + daysOf(leaf) * DAY_MS);
    } else if ('reachable' in leaf && leaf.reachable !== 'push') {
      const until = asTime(facts.attributes.urm_rg_until);
      if (!Number.isNaN(until)) consider(until);
    }
  }
  return next;
}
