import { describe, expect, test } from '@jest/globals';
import { eventsBodySchema } from '../../../functions/api/ingest-events/schema';
import { compileValidator } from '../../../functions/domain/validation';
import { validationProblems } from '../../support/validation';

const validate = compileValidator(eventsBodySchema);
const base = { app_id: 'app_1', profile_id: 'player-1', event: 'deposit', urm_date_time: '2026-11-21T10:00:00Z' };

const problems = (body: unknown) => validationProblems(validate, body);

describe('an events body', () => {
  test('is accepted with custom attributes', () => {
    expect(problems([{ ...base, amount: 25.5, currency: 'EUR', first: true, items: ['a'] }])).toEqual([]);
  });

  test('is accepted with a 255-character event name', () => {
    expect(problems([{ ...base, event: 'e'.repeat(255) }])).toEqual([]);
  });

  const rejected: [string, unknown, string][] = [
    ['is rejected without an event name', [{ ...base, event: undefined }], '[0].event is required'],
    ['is rejected with an empty event name', [{ ...base, event: '' }], '[0].event must not be empty'],
    ['is rejected with an event name over 255 characters', [{ ...base, event: 'e'.repeat(256) }], '[0].event must be at most 255 characters'],
    ['is rejected with a directive, which only profiles take', [{ ...base, urm_set: { a: 1 } }], '[0].urm_set is not allowed'],
    ['is rejected with a null attribute', [{ ...base, amount: null }], '[0].amount must be'],
    ['is rejected with a bad date', [{ ...base, urm_date_time: '21/11/2026' }], '[0].urm_date_time must be an ISO 8601 date-time'],
    ['is rejected with a Urm-prefixed attribute', [{ ...base, Urm_note: 'x' }], '[0].Urm_note is not allowed'],
  ];
  for (const [name, body, expected] of rejected) {
    test(name, () => {
      const messages = problems(JSON.parse(JSON.stringify(body)));
      expect(messages.some((m) => m.includes(expected))).toBeTruthy();
    });
  }
});
