/** A segment's condition in words (functions/console/ui/segment-sentences.ts), and the form's examples. */
import { describe, expect, test } from '@jest/globals';
import { validCondition } from '../../../functions/domain/segments/condition';
import { conditionExamples, conditionSentence, withExample } from '../../../functions/console/ui/segment-sentences';

describe('a condition in sentences', () => {
  test.each([
    [{ events: { name: 'Deposit' }, measure: 'count', op: 'gte', value: 2, within_days: 30 }, 'Deposit at least 2 times in the last 30 days'],
    [{ events: { name: 'Login' }, measure: 'count', op: 'equals', value: 1 }, 'Login exactly 1 time ever'],
    [
      { events: { money: 'deposit' }, measure: 'sum', op: 'gte', value: '500', within_days: 90 },
      'Total deposit amounts (main currency) at least 500 in the last 90 days',
    ],
    [{ events: { name: 'Bet' }, measure: 'sum', property: 'stake', op: 'lt', value: 10, within_days: 1 }, 'Total stake of Bet less than 10 in the last 1 day'],
    [{ last: { name: 'Login' }, not_within_days: 7 }, 'No Login in the last 7 days'],
    [{ last: { money: 'deposit' }, within_days: 14 }, 'deposit (money) in the last 14 days'],
    [{ attribute: 'country', op: 'in', value: ['MT', 'IE'] }, 'country is one of “MT”, “IE”'],
    [{ attribute: 'vip', op: 'equals', value: true }, 'vip is true'],
    [{ attribute: 'email', op: 'not_exists' }, 'email is not set'],
    [{ lifecycle: 'ftd' }, 'Has made a first deposit'],
    [{ lifecycle: 'ngr', op: 'gte', value: '1000' }, 'NGR is at least 1000'],
    [{ reachable: 'email' }, 'Reachable by email (consent, responsible gambling status, an address)'],
    [{ segment: 'vip' }, 'Member of the segment vip'],
    [{ not: { lifecycle: 'ftd' } }, 'Not: Has made a first deposit'],
  ])('%j reads “%s”', (condition, text) => {
    expect(conditionSentence(validCondition(condition))).toEqual({ text });
  });

  test('a combinator is a sentence with its parts under it', () => {
    expect(conditionSentence({ any: [{ segment: 'vip' }, { not: { all: [{ reachable: 'sms' }] } }] })).toEqual({
      text: 'Any of these',
      parts: [
        { text: 'Member of the segment vip' },
        { text: 'None of this', parts: [{ text: 'All of these', parts: [{ text: 'Reachable by sms (consent, responsible gambling status, an address)' }] }] },
      ],
    });
  });
});

describe("the form's examples", () => {
  test('every example is a valid condition', () => {
    for (const example of conditionExamples) expect(validCondition(example.condition)).toEqual(example.condition);
  });

  test('an example fills an empty condition, joins one with all, and adds to a top-level all', () => {
    const first = withExample('', { lifecycle: 'ftd' })!;
    const second = withExample(first, { reachable: 'email' })!;
    const third = withExample(second, { segment: 'vip' })!;

    expect(JSON.parse(first)).toEqual({ lifecycle: 'ftd' });
    expect(JSON.parse(second)).toEqual({ all: [{ lifecycle: 'ftd' }, { reachable: 'email' }] });
    expect(JSON.parse(third)).toEqual({ all: [{ lifecycle: 'ftd' }, { reachable: 'email' }, { segment: 'vip' }] });
  });

  test('text that is not JSON is left alone', () => {
    expect(withExample('{"all": [', { lifecycle: 'ftd' })).toBeUndefined();
  });
});
