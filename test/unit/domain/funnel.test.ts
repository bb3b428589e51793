import { describe, expect, test } from '@jest/globals';
import {
  applyContributions,
  clickContribution,
  countPlayer,
  countsEvent,
  dayOf,
  type Contribution,
  type DayFigures,
  type StoredLedger,
} from '../../../functions/domain/funnel';
import type { MoneySettings } from '../../../functions/domain/money-settings';
import type { StreamItem } from '../../../functions/stream/kinesis-batch';

const SHARD = 'shardId-000000000000';
const BASE = 49_680_000_000_000_000_000_000_000_000_000_000_000_000_000_000_000n;
const seq = (n: number) => (BASE + BigInt(n)).toString();
const NOW = new Date('2026-11-22T12:00:00Z');
const settings: MoneySettings = {
  currency: 'EUR',
  money_events: { Deposit: 'deposit', 'Admin Deposit': 'deposit', Withdrawal: 'withdrawal', Bet: 'bet', Win: 'win', Bonus: 'bonus' },
};

let insert = 0;
function item(n: number, fields: Record<string, unknown>, kind: StreamItem['envelope']['kind'] = 'event'): StreamItem {
  return {
    shardId: SHARD,
    sequenceNumber: seq(n),
    envelope: {
      v: 1,
      kind,
      received_at: '2026-11-22T11:00:00.000Z',
      record: { app_id: 'app_1', profile_id: 'player-1', urm_insert_id: `id-${++insert}`, urm_date_time: '2026-11-21T10:00:00Z', ...fields },
    },
  };
}
const attributed = (n: number, fields: Record<string, unknown> = {}) =>
  item(n, { event: 'urm_affiliate_attributed', urm_aff_id: 'aff-1', urm_aff_link_id: 'link-1', ...fields });
const money = (n: number, event: string, amount: unknown, fields: Record<string, unknown> = {}) => item(n, { event, amount, currency: 'EUR', ...fields });

const count = (items: StreamItem[], stored?: StoredLedger) => countPlayer({ stored, appId: 'app_1', profileId: 'player-1', items, settings, now: NOW });

/** What the contributions add up to per affiliate/link/day, through the day rows that would store them (`app/<day>`: the application's). */
function rows(contributions: Contribution[], scope: 'affiliates' | 'app' = 'affiliates'): Record<string, Partial<DayFigures>> {
  const byRow = new Map<string, Contribution[]>();
  for (const c of contributions.filter((c) => (c.affiliate_id === undefined) === (scope === 'app'))) {
    const key = c.affiliate_id === undefined ? `app/${c.day}` : `${c.affiliate_id}/${c.link_id}/${c.day}`;
    byRow.set(key, [...(byRow.get(key) ?? []), c]);
  }
  return Object.fromEntries(
    [...byRow].map(([key, group]) => {
      const { clicks, registrations, ftds, deposit_count, deposits, withdrawals, bets, wins, bonuses } = applyContributions(undefined, group)!;
      return [key, { clicks, registrations, ftds, deposit_count, deposits, withdrawals, bets, wins, bonuses }];
    }),
  );
}
const zero = { clicks: 0, registrations: 0, ftds: 0, deposit_count: 0, deposits: '0', withdrawals: '0', bets: '0', wins: '0', bonuses: '0' };

describe('the funnel of one player', () => {
  test('an attribution is a registration for its affiliate and link on its UTC day, with a registration row', () => {
    const outcome = count([attributed(1, { urm_aff: 'summer', urm_date_time: '2026-11-21T23:30:00-02:00' })]);

    expect(rows(outcome.contributions)).toEqual({ 'aff-1/link-1/2026-11-22': { ...zero, registrations: 1 } });
    expect(outcome.registrations).toEqual([
      {
        app_id: 'app_1',
        affiliate_id: 'aff-1',
        profile_id: 'player-1',
        link_id: 'link-1',
        sub_id: 'summer',
        day: '2026-11-22',
        urm_date_time: '2026-11-21T23:30:00-02:00',
      },
    ]);
  });

  test('an attribution without a link counts under the link "-"', () => {
    const outcome = count([attributed(1, { urm_aff_link_id: undefined })]);

    expect(Object.keys(rows(outcome.contributions))).toEqual(['aff-1/-/2026-11-21']);
  });

  test('the first deposit after the attribution is an FTD on the deposit day, with its amount on an FTD row', () => {
    const outcome = count([attributed(1), money(2, 'Deposit', 50, { urm_date_time: '2026-11-23T09:00:00Z' })]);

    expect(rows(outcome.contributions)['aff-1/link-1/2026-11-23']).toEqual({ ...zero, ftds: 1, deposit_count: 1, deposits: '50' });
    expect(outcome.ftds).toEqual([
      expect.objectContaining({ affiliate_id: 'aff-1', link_id: 'link-1', day: '2026-11-23', amount: '50', profile_id: 'player-1' }),
    ]);
  });

  test('only the first deposit ever is an FTD, whichever event name it came under', () => {
    const first = count([attributed(1), money(2, 'Deposit', 50)]);
    const later = count([money(3, 'Admin Deposit', 70), money(4, 'Deposit', 30)], first.ledger);

    expect(rows(later.contributions)['aff-1/link-1/2026-11-21']).toEqual({ ...zero, deposit_count: 2, deposits: '100' });
    expect(later.ftds).toEqual([]);
  });

  test('bets, wins, bonuses and withdrawals go to their own sums', () => {
    const outcome = count([attributed(1), money(2, 'Bet', 20), money(3, 'Win', 5.5), money(4, 'Bonus', 2), money(5, 'Withdrawal', 10)]);

    expect(rows(outcome.contributions)['aff-1/link-1/2026-11-21']).toEqual({
      ...zero,
      registrations: 1,
      bets: '20',
      wins: '5.5',
      bonuses: '2',
      withdrawals: '10',
    });
  });

  test('sums are exact decimals: 0.1 and 0.2 make 0.3', () => {
    const outcome = count([attributed(1), money(2, 'Bet', 0.1), money(3, 'Bet', 0.2)]);

    expect(rows(outcome.contributions)['aff-1/link-1/2026-11-21'].bets).toBe('0.3');
  });

  test('money in another currency counts as amount × exchange_rate, exactly', () => {
    const outcome = count([
      attributed(1),
      money(2, 'Bet', 10.1, { currency: 'USD', exchange_rate: 1.1 }),
      money(3, 'Win', 3, { currency: 'USD', exchange_rate: 0.3333 }),
    ]);

    const day = rows(outcome.contributions)['aff-1/link-1/2026-11-21'];
    expect([day.bets, day.wins]).toEqual(['11.11', '0.9999']);
  });

  test('money before the attribution waits on the ledger, then counts for the affiliate on its own days, FTD included', () => {
    const before = count([money(1, 'Deposit', 40, { urm_date_time: '2026-11-19T08:00:00Z' }), money(2, 'Bet', 15, { urm_date_time: '2026-11-20T08:00:00Z' })]);
    const after = count([attributed(3, { urm_date_time: '2026-11-21T08:00:00Z' })], before.ledger);

    expect(rows(before.contributions)).toEqual({});
    expect(rows(before.contributions, 'app')).toEqual({
      'app/2026-11-19': { ...zero, ftds: 1, deposit_count: 1, deposits: '40' },
      'app/2026-11-20': { ...zero, bets: '15' },
    });
    expect(rows(after.contributions, 'app')).toEqual({});
    expect(rows(after.contributions)).toEqual({
      'aff-1/link-1/2026-11-19': { ...zero, ftds: 1, deposit_count: 1, deposits: '40' },
      'aff-1/link-1/2026-11-20': { ...zero, bets: '15' },
      'aff-1/link-1/2026-11-21': { ...zero, registrations: 1 },
    });
    expect(after.ftds).toEqual([expect.objectContaining({ day: '2026-11-19', amount: '40', affiliate_id: 'aff-1' })]);
    expect(after.ledger!.unattributed).toEqual({});
  });

  test('the first attribution wins: a later one counts nothing and money stays with the first affiliate', () => {
    const outcome = count([attributed(1), attributed(2, { urm_aff_id: 'aff-2', urm_aff_link_id: 'link-9' }), money(3, 'Bet', 5)]);

    expect(Object.keys(rows(outcome.contributions))).toEqual(['aff-1/link-1/2026-11-21']);
    expect(outcome.registrations.map((r) => r.affiliate_id)).toEqual(['aff-1']);
  });

  test('an attribution event without an affiliate id attributes nothing', () => {
    const outcome = count([item(1, { event: 'urm_affiliate_attributed', urm_aff: 'x' }), attributed(2)]);

    expect(outcome.registrations.map((r) => r.affiliate_id)).toEqual(['aff-1']);
  });

  test('a redelivered record counts nothing', () => {
    const first = count([attributed(1), money(2, 'Deposit', 50)]);
    const again = count([attributed(1), money(2, 'Deposit', 50)], first.ledger);

    expect(again).toEqual({ contributions: [], registrations: [], ftds: [], deposits: [], rejections: [] });
  });

  test('a record re-sent with the same insert id counts nothing', () => {
    const deposit = money(2, 'Bet', 50);
    const first = count([attributed(1), deposit]);
    const resent = { ...deposit, sequenceNumber: seq(10) };
    const again = count([resent], first.ledger);

    expect(again.contributions).toEqual([]);
  });

  test.each([
    ['no amount', { amount: undefined }, 'amount must be a number greater than 0'],
    ['a zero amount', { amount: 0 }, 'amount must be a number greater than 0'],
    ['a negative amount', { amount: -5 }, 'amount must be a number greater than 0'],
    ['an amount as text', { amount: '5' }, 'amount must be a number greater than 0'],
    ['a currency in lower case', { currency: 'eur' }, 'currency must be three upper-case letters (ISO 4217)'],
    ['no currency', { currency: undefined }, 'currency must be three upper-case letters (ISO 4217)'],
    ['another currency without a rate', { currency: 'USD' }, 'exchange_rate must be a number greater than 0 (USD to the main currency EUR)'],
    [
      'another currency with a zero rate',
      { currency: 'USD', exchange_rate: 0 },
      'exchange_rate must be a number greater than 0 (USD to the main currency EUR)',
    ],
  ])('a money event with %s counts nowhere and says why', (_, fields, reason) => {
    const outcome = count([attributed(1), money(2, 'Deposit', 50, fields)]);

    expect(outcome.rejections.map((r) => r.reason)).toEqual([`money event "Deposit": ${reason}`]);
    expect(rows(outcome.contributions)['aff-1/link-1/2026-11-21']).toEqual({ ...zero, registrations: 1 });
    expect(outcome.ftds).toEqual([]);
  });

  test('a record whose urm_date_time JavaScript cannot read (a leap second) is rejected, not thrown', () => {
    const outcome = count([attributed(1), money(2, 'Deposit', 5, { urm_date_time: '2026-12-31T23:59:60Z' })]);

    expect(outcome.rejections.map((r) => r.reason)).toEqual([
      'urm_date_time cannot be read as a point in time (a leap second?), so the record has no day to count on',
    ]);
    expect(outcome.ftds).toEqual([]);
  });

  test('a rejected first deposit leaves the FTD to the next valid one', () => {
    const outcome = count([attributed(1), money(2, 'Deposit', undefined), money(3, 'Deposit', 25)]);

    expect(outcome.ftds.map((f) => f.amount)).toEqual(['25']);
  });

  test('events the application does not map are not counted, and need no ledger', () => {
    expect(countsEvent(settings, { event: 'Login' })).toBe(false);
    expect(countsEvent(settings, { event: 'Deposit' })).toBe(true);
    expect(countsEvent(settings, { event: 'urm_affiliate_attributed' })).toBe(false);
    expect(countsEvent(settings, { event: 'urm_affiliate_attributed', urm_aff_id: 'aff-1' })).toBe(true);
    expect(countsEvent(settings, { event: 'toString' })).toBe(false);
  });

  test.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'an event named %s counts only when the mapping names it, as its own entry',
    (name) => {
      const mapped: MoneySettings = { currency: 'EUR', money_events: JSON.parse(`{${JSON.stringify(name)}: "bonus"}`) };
      const outcome = countPlayer({
        stored: undefined,
        appId: 'app_1',
        profileId: 'player-1',
        items: [attributed(1), money(2, name, 10)],
        settings: mapped,
        now: NOW,
      });

      expect([countsEvent(settings, { event: name }), countsEvent(mapped, { event: name })]).toEqual([false, true]);
      expect(rows(outcome.contributions)).toEqual({ 'aff-1/link-1/2026-11-21': { ...zero, registrations: 1, bonuses: '10' } });
    },
  );
});

describe("a player's lifetime money on the ledger", () => {
  test('every money event adds to its kind, attributed or not, in exact decimals, and deposits are counted', () => {
    const outcome = count([
      money(1, 'Deposit', 0.1),
      money(2, 'Bonus', 5),
      attributed(3),
      money(4, 'Admin Deposit', 0.2),
      money(5, 'Bet', 40),
      money(6, 'Win', 12.5),
      money(7, 'Withdrawal', 20, { currency: 'USD', exchange_rate: 0.9 }),
    ]);

    expect(outcome.ledger?.lifetime).toEqual({ deposit_count: 2, deposits: '0.3', withdrawals: '18', bets: '40', wins: '12.5', bonuses: '5' });
  });

  test('the last deposit is the one with the latest urm_date_time, whatever order they arrive in', () => {
    const outcome = count([
      money(1, 'Deposit', 10, { urm_date_time: '2026-11-20T10:00:00Z' }),
      money(2, 'Deposit', 30, { urm_date_time: '2026-11-22T08:00:00+02:00' }),
      money(3, 'Deposit', 20, { urm_date_time: '2026-11-21T10:00:00Z' }),
    ]);

    expect(outcome.ledger?.last_deposit).toEqual({ day: '2026-11-22', amount: '30', urm_date_time: '2026-11-22T08:00:00+02:00' });
    expect(outcome.ledger?.first_deposit?.amount).toBe('10');
  });

  test('a later batch adds to what the ledger holds', () => {
    const first = count([money(1, 'Deposit', 50), money(2, 'Withdrawal', 10)]);

    const second = count([money(3, 'Deposit', 25.5, { urm_date_time: '2026-11-22T09:00:00Z' })], first.ledger);

    expect(second.ledger?.lifetime).toMatchObject({ deposit_count: 2, deposits: '75.5', withdrawals: '10' });
    expect(second.ledger?.last_deposit).toEqual({ day: '2026-11-22', amount: '25.5', urm_date_time: '2026-11-22T09:00:00Z' });
  });

  test('a redelivered batch, or a deposit re-sent with its insert id, adds nothing twice: no ledger to write', () => {
    const batch = [money(1, 'Deposit', 50), money(2, 'Bet', 20), money(3, 'Withdrawal', 5)];
    const first = count(batch);

    const again = count(batch, first.ledger);
    const resent = count([{ ...batch[0]!, sequenceNumber: seq(10) }], first.ledger);

    expect([again.ledger, resent.ledger]).toEqual([undefined, undefined]);
    expect(first.ledger?.lifetime).toEqual({ deposit_count: 1, deposits: '50', withdrawals: '5', bets: '20', wins: '0', bonuses: '0' });
  });

  test('a ledger written before lifetime figures were kept starts them from zero', () => {
    const older = count([money(1, 'Deposit', 50)]).ledger!;
    delete older.lifetime;
    delete older.last_deposit;

    const outcome = count([money(2, 'Withdrawal', 7)], older);

    expect(outcome.ledger?.lifetime).toEqual({ deposit_count: 0, deposits: '0', withdrawals: '7', bets: '0', wins: '0', bonuses: '0' });
    expect(outcome.ledger?.last_deposit).toBeUndefined();
  });

  test('a rejected money event adds nothing', () => {
    const outcome = count([money(1, 'Deposit', 50), money(2, 'Deposit', -5), money(3, 'Withdrawal', 5, { currency: 'USD' })]);

    expect(outcome.ledger?.lifetime).toMatchObject({ deposit_count: 1, deposits: '50', withdrawals: '0' });
  });
});

describe('clicks', () => {
  test('a click counts one click for its affiliate, link and UTC day', () => {
    const click = clickContribution(item(1, { affiliate_id: 'aff-1', link_id: 'link-1', urm_date_time: '2026-11-21T23:59:59.999Z' }, 'click'));

    expect(click).toEqual(expect.objectContaining({ affiliate_id: 'aff-1', link_id: 'link-1', day: '2026-11-21', figures: { clicks: 1 } }));
  });

  test('a click without a link counts nowhere and says why', () => {
    expect(clickContribution(item(1, { affiliate_id: 'aff-1' }, 'click'))).toEqual({ reason: 'click: affiliate_id and link_id are required' });
  });
});

describe('day rows', () => {
  const contribution = (n: number, figures: Partial<DayFigures>): Contribution => ({
    app_id: 'app_1',
    affiliate_id: 'aff-1',
    link_id: 'link-1',
    day: '2026-11-21',
    shard: SHARD,
    seq: seq(n),
    figures,
  });

  test('a row takes the contributions after its last applied sequence number, and only those', () => {
    const first = applyContributions(undefined, [contribution(1, { clicks: 1 }), contribution(2, { bets: '5' })])!;
    const second = applyContributions(first, [contribution(2, { bets: '5' }), contribution(3, { bets: '1.25' })])!;

    expect([second.clicks, second.bets, second.applied[SHARD], second.version]).toEqual([1, '6.25', seq(3), 2]);
  });

  test('several contributions of one record all count (an attribution releasing money on its own day)', () => {
    const row = applyContributions(undefined, [contribution(5, { registrations: 1 }), contribution(5, { deposits: '10', deposit_count: 1 })])!;

    expect([row.registrations, row.deposits, row.deposit_count]).toEqual([1, '10', 1]);
  });

  test('a row that already has every contribution needs no write', () => {
    const row = applyContributions(undefined, [contribution(1, { clicks: 1 })])!;

    expect(applyContributions(row, [contribution(1, { clicks: 1 })])).toBeUndefined();
  });

  test('the day of a record is the UTC date of its urm_date_time', () => {
    expect(dayOf('2026-11-21T01:00:00+03:00')).toBe('2026-11-20');
  });
});

describe("the send gate's refusals and deferrals on the application's day rows", () => {
  const suppressed = (n: number, reason: string, fields: Record<string, unknown> = {}) =>
    item(n, { event: 'urm_message_suppressed', reason, channel: 'email', ...fields });

  test('each is counted once on its UTC day by reason, and an unknown reason not at all', () => {
    const first = suppressed(1, 'rg_status');
    const outcome = count([first, suppressed(2, 'rg_status'), suppressed(3, 'quiet_hours'), suppressed(4, 'no such reason')]);
    const resent = suppressed(5, 'rg_status', { urm_insert_id: first.envelope.record.urm_insert_id });
    const again = count([first, resent], outcome.ledger);

    expect(applyContributions(undefined, outcome.contributions)).toMatchObject({ day: '2026-11-21', suppressed: { rg_status: 2, quiet_hours: 1 } });
    expect(again.contributions).toEqual([]);
  });

  test('the funnel looks at them only with a known reason', () => {
    expect(countsEvent(settings, { event: 'urm_message_suppressed', reason: 'daily_cap' })).toBe(true);
    expect(countsEvent(settings, { event: 'urm_message_suppressed', reason: 'constructor' })).toBe(false);
  });
});

describe("the application's day rows", () => {
  test('every money event counts on its UTC day for the application, attributed or not, the first deposit as its FTD', () => {
    const outcome = count([
      money(1, 'Deposit', 40, { urm_date_time: '2026-11-20T23:30:00-02:00' }),
      money(2, 'Deposit', 10.5),
      money(3, 'Withdrawal', 5),
      attributed(4),
      money(5, 'Bet', 20),
      money(6, 'Win', 7.25),
    ]);

    expect(rows(outcome.contributions, 'app')).toEqual({
      'app/2026-11-21': { ...zero, ftds: 1, deposit_count: 2, deposits: '50.5', withdrawals: '5', bets: '20', wins: '7.25' },
    });
  });

  test('a redelivered or re-sent money event adds nothing to the application', () => {
    const deposit = money(1, 'Deposit', 40);
    const first = count([deposit]);
    const resent = money(2, 'Deposit', 40, { urm_insert_id: deposit.envelope.record.urm_insert_id });

    const again = count([deposit, resent], first.ledger);

    expect(again.contributions).toEqual([]);
  });

  test('a later deposit is no FTD for the application', () => {
    const first = count([money(1, 'Deposit', 40)]);
    const later = count([money(2, 'Deposit', 30)], first.ledger);

    expect(rows(later.contributions, 'app')).toEqual({ 'app/2026-11-21': { ...zero, deposit_count: 1, deposits: '30' } });
  });

  test("an application's row is keyed by the application and day, without affiliate or link", () => {
    const [contribution] = count([money(1, 'Bet', 3)]).contributions;

    const row = applyContributions(undefined, [contribution])!;

    expect(row).toMatchObject({ pk: 'app#app_1', sk: 'd#2026-11-21', app_id: 'app_1', day: '2026-11-21', bets: '3', version: 1 });
    expect(row).not.toHaveProperty('affiliate_id');
    expect(row).not.toHaveProperty('link_id');
  });
});
