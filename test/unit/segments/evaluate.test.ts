import { describe, expect, test } from '@jest/globals';
import type { Attributes } from '../../../functions/domain/attributes';
import type { Condition } from '../../../functions/domain/segments/condition';
import { evaluate, nextChange, rgNone, type Facts } from '../../../functions/domain/segments/evaluate';
import { needKey } from '../../../functions/domain/segments/needs';
import type { Aggregate } from '../../../functions/domain/segments/state';

const NOW = new Date('2026-11-26T12:00:00.000Z');
const figure = (fields: Partial<Aggregate>): Aggregate => ({ since: '2026-01-01T00:00:00.000Z', from: {}, complete: true, total: '0', ...fields });
const facts = (attributes: Attributes = {}, aggregates: Record<string, Aggregate> = {}, now = NOW, members: string[] = []): Facts => ({
  attributes,
  aggregates,
  now,
  member: (id) => members.includes(id),
});
const holds = (condition: Condition, f: Facts) => evaluate(condition, f);

describe('attribute conditions', () => {
  test.each([
    [{ attribute: 'country', op: 'equals', value: 'MT' }, { country: 'MT' }, true],
    [{ attribute: 'country', op: 'equals', value: 'MT' }, { country: 'mt' }, false],
    [{ attribute: 'country', op: 'not_equals', value: 'MT' }, {}, true],
    [{ attribute: 'age', op: 'lt', value: 30 }, { age: 29 }, true],
    [{ attribute: 'age', op: 'lte', value: 30 }, { age: 30 }, true],
    [{ attribute: 'age', op: 'gt', value: 30 }, { age: 30 }, false],
    [{ attribute: 'age', op: 'gte', value: 30 }, { age: 30 }, true],
    [{ attribute: 'age', op: 'gt', value: 30 }, { age: '31' }, false],
    [{ attribute: 'country', op: 'in', value: ['MT', 'IE'] }, { country: 'IE' }, true],
    [{ attribute: 'country', op: 'not_in', value: ['MT', 'IE'] }, { country: 'DE' }, true],
    [{ attribute: 'country', op: 'not_in', value: ['MT', 'IE'] }, { country: 'MT' }, false],
    [{ attribute: 'vip', op: 'exists' }, { vip: false }, true],
    [{ attribute: 'vip', op: 'exists' }, { vip: null }, false],
    [{ attribute: 'vip', op: 'not_exists' }, {}, true],
    [{ attribute: 'vip', op: 'equals', value: true }, { vip: true }, true],
    [{ attribute: 'tags', op: 'contains', value: 'slots' }, { tags: ['poker', 'slots'] }, true],
    [{ attribute: 'tags', op: 'contains', value: ['slots', 'live'] }, { tags: ['poker', 'slots'] }, false],
    [{ attribute: 'name', op: 'contains', value: 'org' }, { name: 'Borg' }, true],
    [{ attribute: 'email', op: 'starts_with', value: 'liam' }, { email: 'liam@example.com' }, true],
    [{ attribute: 'signed_up', op: 'gt', value: '2026-01-01T00:00:00Z' }, { signed_up: '2026-01-01T02:00:00+01:00' }, true],
    [{ attribute: 'signed_up', op: 'equals', value: '2026-01-01T00:00:00Z' }, { signed_up: '2026-01-01T01:00:00+01:00' }, true],
  ] as [Condition, Attributes, boolean][])('%j on %j is %s', (condition, attributes, expected) => {
    expect(holds(condition, facts(attributes))).toBe(expected);
  });
});

describe('event conditions', () => {
  const deposits = needKey('count', { name: 'Deposit' });
  const stake = needKey('sum', { name: 'Bet' }, 'stake');
  const money = needKey('sum', { money: 'deposit' });

  test('a window of N days counts today and the N-1 days before it, from UTC midnight', () => {
    const aggregates = { [deposits]: figure({ total: '3', days: { '2026-11-20': '1', '2026-11-19': '1', '2026-11-26': '1' } }) };
    const within = (days: number, value: number) =>
      holds({ events: { name: 'Deposit' }, measure: 'count', op: 'gte', value, within_days: days }, facts({}, aggregates));

    expect(within(7, 2)).toBe(true); // 20th and 26th
    expect(within(7, 3)).toBe(false); // the 19th left the window at midnight of the 26th
    expect(within(8, 3)).toBe(true);
  });

  test('ever counts the total', () => {
    expect(holds({ events: { name: 'Deposit' }, measure: 'count', op: 'equals', value: 3 }, facts({}, { [deposits]: figure({ total: '3' }) }))).toBe(true);
  });

  test('sums compare as exact decimals', () => {
    const aggregates = { [money]: figure({ total: '0.3' }), [stake]: figure({ total: '100.000001' }) };
    expect(holds({ events: { money: 'deposit' }, measure: 'sum', op: 'equals', value: '0.3' }, facts({}, aggregates))).toBe(true);
    expect(holds({ events: { name: 'Bet' }, measure: 'sum', property: 'stake', op: 'gt', value: 100 }, facts({}, aggregates))).toBe(true);
  });

  test('a figure never kept is zero', () => {
    expect(holds({ events: { name: 'Deposit' }, measure: 'count', op: 'equals', value: 0, within_days: 30 }, facts())).toBe(true);
  });
});

describe('recency', () => {
  const login = needKey('last', { name: 'Login' });
  const lastLogin = (at: string) => ({ [login]: figure({ last: at }) });
  const notWithin: Condition = { last: { name: 'Login' }, not_within_days: 7 };

  test('not within N days holds from exactly N × 24 h after the last event', () => {
    expect(holds(notWithin, facts({}, lastLogin('2026-11-19T12:00:00.001Z')))).toBe(false);
    expect(holds(notWithin, facts({}, lastLogin('2026-11-19T12:00:00.000Z')))).toBe(true);
  });

  test('never counts as not within, and not as within', () => {
    expect(holds(notWithin, facts())).toBe(true);
    expect(holds({ last: { name: 'Login' }, within_days: 7 }, facts())).toBe(false);
  });

  test('the next change is the moment the last event grows N days old', () => {
    expect(nextChange(notWithin, facts({}, lastLogin('2026-11-20T08:30:00.000Z')))).toBe(Date.parse('2026-11-27T08:30:00.000Z'));
    expect(nextChange(notWithin, facts({}, lastLogin('2026-11-01T08:30:00.000Z')))).toBeUndefined();
  });
});

describe('next change', () => {
  test('is the midnight the oldest counted day leaves the window', () => {
    const key = needKey('count', { name: 'Deposit' });
    const condition: Condition = { events: { name: 'Deposit' }, measure: 'count', op: 'gte', value: 1, within_days: 3 };
    const aggregates = { [key]: figure({ total: '2', days: { '2026-11-25': '1', '2026-11-26': '1' } }) };

    expect(new Date(nextChange(condition, facts({}, aggregates))!).toISOString()).toBe('2026-11-28T00:00:00.000Z');
  });

  test('is the end of a cool-off for reachability', () => {
    const attributes = { email: 'a@b.c', urm_consent_email: true, urm_rg_status: 'cool_off', urm_rg_until: '2026-11-27T00:00:00Z' };
    expect(nextChange({ reachable: 'email' }, facts(attributes))).toBe(Date.parse('2026-11-27T00:00:00Z'));
  });

  test('is none for conditions time cannot change', () => {
    expect(nextChange({ attribute: 'country', op: 'equals', value: 'MT' }, facts())).toBeUndefined();
  });
});

describe('lifecycle', () => {
  const aggregates = {
    [needKey('count', { money: 'deposit' })]: figure({ total: '2' }),
    [needKey('sum', { money: 'deposit' })]: figure({ total: '150.10' }),
    [needKey('sum', { money: 'withdrawal' })]: figure({ total: '20' }),
    [needKey('sum', { money: 'bet' })]: figure({ total: '100.1' }),
    [needKey('sum', { money: 'win' })]: figure({ total: '40' }),
    [needKey('sum', { money: 'bonus' })]: figure({ total: '0.1' }),
  };
  test.each([
    [{ lifecycle: 'ftd' }, true],
    [{ lifecycle: 'deposit_count', op: 'equals', value: 2 }, true],
    [{ lifecycle: 'lifetime_deposits', op: 'equals', value: '150.1' }, true],
    [{ lifecycle: 'lifetime_withdrawals', op: 'lt', value: '20' }, false],
    [{ lifecycle: 'ngr', op: 'equals', value: '60' }, true],
  ] as [Condition, boolean][])('%j is %s', (condition, expected) => {
    expect(holds(condition, facts({}, aggregates))).toBe(expected);
  });

  test('no deposit: not an FTD', () => {
    expect(holds({ lifecycle: 'ftd' }, facts())).toBe(false);
  });
});

describe('reachability', () => {
  const email = { email: 'liam@example.com', urm_consent_email: true };
  test.each([
    ['email with consent and no RG status', email, 'email', true],
    ['email without consent', { email: 'liam@example.com' }, 'email', false],
    ['email while self-excluded', { ...email, urm_rg_status: 'self_excluded' }, 'email', false],
    ['email after a cool-off ended', { ...email, urm_rg_status: 'cool_off', urm_rg_until: '2026-11-26T11:59:59Z' }, 'email', true],
    ['email while blocked, whatever the end', { ...email, urm_rg_status: 'blocked', urm_rg_until: '2020-01-01T00:00:00Z' }, 'email', false],
    ['sms with a phone and consent', { phone: '+356 7912 3456', urm_consent_sms: true }, 'sms', true],
    ['sms without a phone', { urm_consent_sms: true }, 'sms', false],
    ['push with a token and notifications on', { urm_web_push_notification_token: ['t'], urm_receives_notifications: true }, 'push', true],
    ['push with a token but no answer on notifications (the gate: absent consent is no)', { urm_web_push_notification_token: ['t'] }, 'push', false],
    ['push while self-excluded', { urm_web_push_notification_token: ['t'], urm_receives_notifications: true, urm_rg_status: 'self_excluded' }, 'push', false],
    ['email to a bounced address', { ...email, urm_email_suppressed: 'bounce' }, 'email', false],
    ['push turned off', { urm_web_push_notification_token: ['t'], urm_receives_notifications: false }, 'push', false],
    ['push without a token', {}, 'push', false],
  ] as [string, Attributes, 'email' | 'sms' | 'push', boolean][])('%s', (_, attributes, channel, expected) => {
    expect(holds({ reachable: channel }, facts(attributes))).toBe(expected);
  });

  test('a suppressed address is not reachable (the send gate fills the hook)', () => {
    expect(evaluate({ reachable: 'email' }, { ...facts(email), suppressed: () => true })).toBe(false);
  });

  test('an RG status other than cool-off and exclusion never ends by time', () => {
    expect(rgNone({ urm_rg_status: 'blocked' }, NOW)).toBe(false);
  });
});

describe('combinators and membership', () => {
  test('all, any, not and another segment', () => {
    const condition: Condition = { all: [{ segment: 'vip' }, { any: [{ attribute: 'a', op: 'exists' }, { not: { attribute: 'b', op: 'exists' } }] }] };
    expect(holds(condition, facts({}, {}, NOW, ['vip']))).toBe(true);
    expect(holds(condition, facts({ b: 1 }, {}, NOW, ['vip']))).toBe(false);
    expect(holds(condition, facts({}, {}, NOW, []))).toBe(false);
  });
});
