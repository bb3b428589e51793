import { describe, expect, test } from '@jest/globals';
import { moneySettingsOf, moneySettingsProblems, parseMoneyEventPairs } from '../../../functions/domain/money-settings';

describe('money settings', () => {
  test('a currency of three upper-case letters and known kinds are fine', () => {
    expect(moneySettingsProblems({ currency: 'EUR', money_events: { Deposit: 'deposit', 'Admin Deposit': 'deposit', Bet: 'bet' } })).toEqual([]);
  });

  test.each(['eur', 'EURO', 'E1R', ''])('the currency %j is refused', (currency) => {
    expect(moneySettingsProblems({ currency })).toEqual(['currency must be three upper-case letters (ISO 4217), e.g. EUR']);
  });

  test('an unknown kind is refused, naming the event', () => {
    expect(moneySettingsProblems({ money_events: { Deposit: 'cashback' } })).toEqual([
      'money_events.Deposit must be one of deposit, withdrawal, bet, win, bonus',
    ]);
  });

  test('names that are not event names are refused', () => {
    expect(moneySettingsProblems({ money_events: { '': 'deposit', 'a\u0001b': 'bet', ['x'.repeat(256)]: 'win' } })).toHaveLength(3);
  });

  test('the attribution event cannot carry money', () => {
    expect(moneySettingsProblems({ money_events: { urm_affiliate_attributed: 'deposit' } })).toEqual([
      'money_events: urm_affiliate_attributed is the attribution event and carries no money',
    ]);
  });

  test('the command line pairs split at the last "=", so a name may hold one', () => {
    expect(parseMoneyEventPairs(['Admin Deposit=deposit', 'a=b=bet', 'broken'])).toEqual({
      money_events: { 'Admin Deposit': 'deposit', 'a=b': 'bet' },
      problems: ['"broken" must be EventName=kind'],
    });
  });

  test('an application that never said anything counts in EUR and maps no events', () => {
    expect(moneySettingsOf({})).toEqual({ currency: 'EUR', money_events: {} });
  });

  // DynamoDB's document marshaller cannot keep these two keys in a map: `constructor` fails the write, `__proto__` is lost.
  test.each(['constructor', '__proto__'])('the name %s is refused: the settings store cannot keep it', (name) => {
    const events = JSON.parse(`{${JSON.stringify(name)}: "deposit"}`) as Record<string, string>;

    expect(moneySettingsProblems({ money_events: events })).toEqual([
      `money_events: ${JSON.stringify(name)} cannot carry money (a name the settings store cannot keep)`,
    ]);
  });

  test('other names that Object.prototype also has are event names like any other', () => {
    expect(moneySettingsProblems({ money_events: { toString: 'deposit', hasOwnProperty: 'bet', valueOf: 'win' } })).toEqual([]);
  });

  test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('the command line pair %s=deposit is read as its own entry', (name) => {
    const { money_events, problems } = parseMoneyEventPairs([`${name}=deposit`]);

    expect(problems).toEqual([]);
    expect(Object.entries(money_events)).toEqual([[name, 'deposit']]);
  });
});
