/**
 * A segment's condition in words, as a CRM manager reads it: "Deposit at
 * least 2 times in the last 30 days", "No Login in the last 7 days". A
 * combinator is a sentence with its parts under it. Pure: the segment page
 * draws the tree, the tests read it.
 */
import type { Condition, EventSelector, LeafCondition } from '../../domain/segments/condition';

export interface Sentence {
  text: string;
  parts?: Sentence[];
}

const figureWords: Record<string, string> = {
  equals: 'exactly',
  not_equals: 'other than',
  lt: 'fewer than',
  lte: 'at most',
  gt: 'more than',
  gte: 'at least',
};

const amountWords: Record<string, string> = { ...figureWords, lt: 'less than' };

const attributeWords: Record<string, string> = {
  equals: 'is',
  not_equals: 'is not',
  lt: 'is less than',
  lte: 'is at most',
  gt: 'is more than',
  gte: 'is at least',
  in: 'is one of',
  not_in: 'is none of',
  contains: 'contains',
  starts_with: 'starts with',
};

const lifecycleNames: Record<string, string> = {
  lifetime_deposits: 'Lifetime deposits are',
  lifetime_withdrawals: 'Lifetime withdrawals are',
  ngr: 'NGR is',
  deposit_count: 'Deposits made are',
};

const quoted = (value: unknown) => (typeof value === 'string' ? `“${value}”` : String(value));
const listOf = (value: unknown) => (Array.isArray(value) ? value.map(quoted).join(', ') : quoted(value));
const window = (days: number | undefined) => (days === undefined ? 'ever' : `in the last ${days} day${days === 1 ? '' : 's'}`);

/** An event selector as a noun: the event's name, or the money kind ("a deposit"). */
function eventsOf(selector: EventSelector): { name: string; money: boolean } {
  return 'name' in selector ? { name: selector.name, money: false } : { name: selector.money, money: true };
}

function leafSentence(leaf: LeafCondition): string {
  if ('attribute' in leaf) {
    if (leaf.op === 'exists') return `${leaf.attribute} is set`;
    if (leaf.op === 'not_exists') return `${leaf.attribute} is not set`;
    return `${leaf.attribute} ${attributeWords[leaf.op]} ${listOf(leaf.value)}`;
  }
  if ('events' in leaf) {
    const events = eventsOf(leaf.events);
    const what = events.money ? `${events.name} (money)` : events.name;
    if (leaf.measure === 'count') {
      const times = Number(leaf.value) === 1 ? 'time' : 'times';
      return `${what} ${figureWords[leaf.op]} ${leaf.value} ${times} ${window(leaf.within_days)}`;
    }
    const summed = events.money ? `${events.name} amounts (main currency)` : `${leaf.property} of ${events.name}`;
    return `Total ${summed} ${amountWords[leaf.op]} ${leaf.value} ${window(leaf.within_days)}`;
  }
  if ('last' in leaf) {
    const events = eventsOf(leaf.last);
    const what = events.money ? `${events.name} (money)` : events.name;
    return 'within_days' in leaf ? `${what} ${window(leaf.within_days)}` : `No ${what} ${window(leaf.not_within_days)}`;
  }
  if ('lifecycle' in leaf) {
    if (leaf.lifecycle === 'ftd') return 'Has made a first deposit';
    return `${lifecycleNames[leaf.lifecycle]} ${amountWords[leaf.op!]} ${leaf.value}`;
  }
  if ('reachable' in leaf) return `Reachable by ${leaf.reachable} (consent, responsible gambling status, an address)`;
  return `Member of the segment ${leaf.segment}`;
}

export function conditionSentence(condition: Condition): Sentence {
  if ('all' in condition) return { text: 'All of these', parts: condition.all.map(conditionSentence) };
  if ('any' in condition) return { text: 'Any of these', parts: condition.any.map(conditionSentence) };
  if ('not' in condition) {
    const inner = conditionSentence(condition.not);
    return inner.parts ? { text: 'None of this', parts: [inner] } : { text: `Not: ${inner.text}` };
  }
  return { text: leafSentence(condition) };
}

/** One example of each kind, for the form's buttons to insert. */
export const conditionExamples: readonly { label: string; condition: Condition }[] = [
  { label: 'Attribute', condition: { attribute: 'country', op: 'in', value: ['MT', 'IE'] } },
  { label: 'Event count', condition: { events: { name: 'Deposit' }, measure: 'count', op: 'gte', value: 2, within_days: 30 } },
  { label: 'Money sum', condition: { events: { money: 'deposit' }, measure: 'sum', op: 'gte', value: '500', within_days: 90 } },
  { label: 'Recency', condition: { last: { name: 'Login' }, not_within_days: 7 } },
  { label: 'Lifecycle', condition: { lifecycle: 'ngr', op: 'gte', value: '1000' } },
  { label: 'Reachable', condition: { reachable: 'email' } },
  { label: 'Member of', condition: { segment: 'vip' } },
  { label: 'Not', condition: { not: { lifecycle: 'ftd' } } },
];

/**
 * The condition text with `example` added: the example alone when the text is empty, else joined to what is there
 * with `all` (appended to a top-level `all`). Undefined when the text is not JSON, so nothing typed is lost.
 */
export function withExample(text: string, example: Condition): string | undefined {
  if (text.trim() === '') return JSON.stringify(example, null, 2);
  let current: unknown;
  try {
    current = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
  const all = 'all' in current && Array.isArray(current.all) && Object.keys(current).length === 1 ? current.all : [current];
  return JSON.stringify({ all: [...all, example] }, null, 2);
}
