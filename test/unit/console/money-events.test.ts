/**
 * The Settings page's money rows (functions/console/ui/money-events.ts) against
 * the server's own messages (functions/domain/money-settings.ts): each refused
 * event's message lands on that event's row and no other.
 */
import { describe, expect, test } from '@jest/globals';
import { moneyKinds as serverKinds } from '../../../functions/domain/affiliate-program';
import { moneySettingsProblems } from '../../../functions/domain/money-settings';
import { moneyKinds, moneyRowErrors } from '../../../functions/console/ui/money-events';

describe('the money rows of the Settings page', () => {
  test('offer exactly the kinds the server takes', () => {
    expect([...moneyKinds].sort()).toEqual([...serverKinds].sort());
  });

  test.each([
    ['an empty name', ''],
    ['a name the store cannot keep', 'constructor'],
    ['the attribution event', 'urm_affiliate_attributed'],
    ['a name with a control character', 'Dep\u0007osit'],
  ])('%s: the server’s message is on its row only', (_what, name) => {
    const errors = moneySettingsProblems({ money_events: { Deposit: 'deposit', [name]: 'deposit', 'Deposit bonus': 'bonus' } });

    expect(errors).toHaveLength(1);
    expect(moneyRowErrors(errors, name)).toEqual(errors);
    expect(moneyRowErrors(errors, 'Deposit')).toEqual([]);
    expect(moneyRowErrors(errors, 'Deposit bonus')).toEqual([]);
  });

  test('a kind the server refuses is on the row of its event, not on one whose name it begins', () => {
    const errors = moneySettingsProblems({ money_events: { Deposit: 'gift', 'Deposit bonus': 'bonus' } });

    expect(moneyRowErrors(errors, 'Deposit')).toEqual(errors);
    expect(moneyRowErrors(errors, 'Deposit bonus')).toEqual([]);
    expect(moneyRowErrors(undefined, 'Deposit')).toEqual([]);
  });
});
