import { describe, expect, test } from '@jest/globals';
import { ValidationError } from '../../../functions/domain/errors';
import { MAX_CONDITION_DEPTH, MAX_CONDITION_NODES, referencedSegments, validCondition } from '../../../functions/domain/segments/condition';

function problemsOf(input: unknown): string[] {
  try {
    validCondition(input);
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
  return [];
}

describe('every kind of condition is accepted', () => {
  test.each([
    ['attribute equals', { attribute: 'country', op: 'equals', value: 'MT' }],
    ['attribute not_equals', { attribute: 'vip', op: 'not_equals', value: true }],
    ['attribute lt', { attribute: 'age', op: 'lt', value: 30 }],
    ['attribute gte', { attribute: 'signed_up_at', op: 'gte', value: '2026-01-01T00:00:00Z' }],
    ['attribute in', { attribute: 'country', op: 'in', value: ['MT', 'IE'] }],
    ['attribute not_in', { attribute: 'country', op: 'not_in', value: ['GB'] }],
    ['attribute exists', { attribute: 'email', op: 'exists' }],
    ['attribute not_exists', { attribute: 'phone', op: 'not_exists' }],
    ['attribute contains', { attribute: 'tags', op: 'contains', value: 'slots' }],
    ['attribute starts_with', { attribute: 'email', op: 'starts_with', value: 'vip.' }],
    ['count of events in a window', { events: { name: 'Deposit' }, measure: 'count', op: 'gte', value: 2, within_days: 30 }],
    ['count of events ever', { events: { name: 'Login' }, measure: 'count', op: 'equals', value: 0 }],
    ['sum of a property', { events: { name: 'Bet' }, measure: 'sum', property: 'stake', op: 'gt', value: 100, within_days: 7 }],
    ['sum of a money kind', { events: { money: 'deposit' }, measure: 'sum', op: 'gte', value: '500.00', within_days: 90 }],
    ['recency within', { last: { name: 'Login' }, within_days: 7 }],
    ['recency not within', { last: { money: 'deposit' }, not_within_days: 30 }],
    ['lifecycle ftd', { lifecycle: 'ftd' }],
    ['lifecycle ngr', { lifecycle: 'ngr', op: 'gte', value: '500' }],
    ['lifecycle deposit count', { lifecycle: 'deposit_count', op: 'gte', value: 3 }],
    ['reachable', { reachable: 'email' }],
    ['membership', { segment: 'vip' }],
    ['all', { all: [{ lifecycle: 'ftd' }, { reachable: 'push' }] }],
    ['any', { any: [{ segment: 'vip' }, { lifecycle: 'ngr', op: 'gt', value: 1000 }] }],
    ['not', { not: { last: { name: 'Login' }, within_days: 7 } }],
  ])('%s', (_kind, condition) => {
    expect(validCondition(condition)).toEqual(condition);
  });
});

describe("a refusal's message names the node's path", () => {
  test.each([
    [
      { all: [{ lifecycle: 'ftd' }, { events: { name: 'Deposit' }, measure: 'count', op: 'gte', value: 2, within_days: 366 }] },
      'condition.all[1].within_days must be <= 365',
    ],
    [{ any: [{ attribute: 'country', op: 'in', value: 'MT' }] }, 'condition.any[0].value must be a list for in'],
    [{ not: { attribute: 'email', op: 'exists', value: 'x' } }, 'condition.not.value must be absent for exists'],
    [{ attribute: 'age', op: 'gt' }, 'condition.value is required for gt'],
    [{ events: { name: 'Bet' }, measure: 'sum', op: 'gt', value: 1 }, 'condition.property is required to sum events by name'],
    [{ last: { name: 'Login' } }, 'condition needs one of within_days and not_within_days'],
    [{ not: { last: { name: 'Login' }, within_days: 400 } }, 'condition.not.within_days must be <= 365'],
    [{ lifecycle: 'ngr' }, 'condition needs op and value for ngr'],
    [{ lifecycle: 'ftd', op: 'gt', value: 1 }, 'condition: ftd takes no op or value (use {"not": …} for players without one)'],
    [{ all: [{ colour: 'blue' }] }, 'condition.all[0] must have one of attribute, events, last, lifecycle, reachable, segment, all, any, not'],
    [{ all: [] }, 'condition.all must be a list of 1 to 20 conditions'],
    [{ any: [{ segment: 'vip' }], extra: 1 }, 'condition.extra is not allowed beside any'],
    ['text', 'condition must be an object'],
  ])('%j: %s', (condition, message) => {
    expect(problemsOf(condition)).toContain(message);
  });
});

test("a recency node's refusal speaks only of the window it uses", () => {
  expect(problemsOf({ last: { name: 'Login' }, not_within_days: 0 })).toEqual(['condition.not_within_days must be >= 1']);
});

describe('bounds', () => {
  test(`a tree deeper than ${MAX_CONDITION_DEPTH} is refused`, () => {
    let deep: unknown = { lifecycle: 'ftd' };
    for (let i = 0; i < MAX_CONDITION_DEPTH; i++) deep = { not: deep };

    expect(problemsOf(deep)).toEqual([`condition${'.not'.repeat(MAX_CONDITION_DEPTH)} is nested more than ${MAX_CONDITION_DEPTH} deep`]);
  });

  test(`a tree of more than ${MAX_CONDITION_NODES} parts is refused`, () => {
    const wide = { all: Array.from({ length: 3 }, () => ({ any: Array.from({ length: 20 }, () => ({ lifecycle: 'ftd' })) })) };

    expect(problemsOf(wide)).toEqual([`condition has 64 parts; at most ${MAX_CONDITION_NODES}`]);
  });

  test('a tree at the bounds is accepted', () => {
    let deep: unknown = { lifecycle: 'ftd' };
    for (let i = 1; i < MAX_CONDITION_DEPTH; i++) deep = { not: deep };

    expect(problemsOf(deep)).toEqual([]);
  });
});

test('referencedSegments names every membership, however deep', () => {
  expect(referencedSegments({ all: [{ segment: 'a' }, { any: [{ not: { segment: 'b' } }, { lifecycle: 'ftd' }] }] })).toEqual(['a', 'b']);
});
