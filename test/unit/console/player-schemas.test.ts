import { describe, expect, test } from '@jest/globals';
import { validChangeAttribute } from '../../../functions/console/players/schemas';
import { ValidationError } from '../../../functions/domain/errors';

const problems = (body: unknown) => {
  try {
    validChangeAttribute(body);
    return [];
  } catch (error) {
    if (error instanceof ValidationError) return [error.message, ...(error.errors ?? [])];
    throw error;
  }
};

describe("the console's attribute change body", () => {
  test('a set with a value, and an unset without one, are valid', () => {
    expect(problems({ action: 'set', attribute: 'tier', value: ['gold', 1] })).toEqual([]);
    expect(problems({ action: 'unset', attribute: 'tier', action_id: 'a-1' })).toEqual([]);
  });

  test('a set needs a value, an unset takes none', () => {
    expect(problems({ action: 'set', attribute: 'tier' }).join()).toMatch(/value/);
    expect(problems({ action: 'unset', attribute: 'tier', value: 1 })).toContain('value is not allowed');
  });

  test('system attributes, null values and unknown fields are refused', () => {
    expect(problems({ action: 'set', attribute: 'urm_aff_id', value: 'x' }).join()).toMatch(/urm_aff_id/);
    expect(problems({ action: 'set', attribute: 'tier', value: null }).length).toBeGreaterThan(0);
    expect(problems({ action: 'set', attribute: 'tier', value: 1, user_id: 'someone' }).join()).toMatch(/user_id/);
  });
});
