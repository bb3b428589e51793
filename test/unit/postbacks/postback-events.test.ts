/**
 * The postback events an affiliate chooses (registration, ftd, cpa, deposit), the `{payout}` placeholder, and the
 * masking of the URL the delivery log keeps: the rules, the funnel consumer's outbox rows, and the sender.
 */
import { describe, expect, test } from '@jest/globals';
import { countFunnel } from '../../../functions/consumers/count-funnel/core';
import type { Plan } from '../../../functions/domain/affiliate-program';
import { affiliatePk, countPlayer, ftdSk, registrationSk, type StoredLedger } from '../../../functions/domain/funnel';
import type { MoneySettings } from '../../../functions/domain/money-settings';
import {
  cpaPayout,
  cpaPostbackSk,
  depositPostbackSk,
  maskPostbackUrl,
  postbackEventId,
  postbackEventOf,
  postbackEventProblems,
  postbackEventsOf,
  postbackSecretName,
  postbackValues,
  receivedEvents,
  type PostbackEvent,
  type PostbackResponse,
} from '../../../functions/domain/postbacks';
import { sendPostbacks } from '../../../functions/scheduled/send-postbacks/core';
import type { StreamItem } from '../../../functions/stream/kinesis-batch';
import { MemoryFunnelStore } from '../../support/funnel-store';
import { MemoryRejectionLog } from '../../support/players';
import { dueRow, MemoryPostbackOutbox, MemoryPostbackSettings, ScriptedReceiver } from '../../support/postbacks';

const NOW = new Date('2026-11-23T10:00:00Z');
const settings: MoneySettings = { currency: 'EUR', money_events: { Deposit: 'deposit', Bet: 'bet' } };
const plan = (cpa?: Plan['cpa']): Plan => ({ app_id: 'app-1', plan_id: 'plan-1', name: 'CPA', ...(cpa ? { cpa } : {}), created_at: '2026-01-01T00:00:00Z' });

describe('masking the URL the delivery log keeps', () => {
  test.each([
    ['a token parameter', 'https://t.example/pb?token=abc123&e=ftd', 'https://t.example/pb?token=***&e=ftd'],
    [
      'names that look secret, in any case',
      'https://t.example/pb?API_KEY=k&Secret=s&pwd=p&Password=x&sig=1',
      'https://t.example/pb?API_KEY=***&Secret=***&pwd=***&Password=***&sig=***',
    ],
    [
      'signature, auth and session names',
      'https://t.example/?x_signature=a&authorization=b&sessionid=c',
      'https://t.example/?x_signature=***&authorization=***&sessionid=***',
    ],
    ['an encoded name', 'https://t.example/pb?api%5Fkey=k&goal=ftd', 'https://t.example/pb?api%5Fkey=***&goal=ftd'],
    ['user info', 'http://user:pass@127.0.0.1:8080/pb?e=1', 'http://***@127.0.0.1:8080/pb?e=1'],
    ['an empty secret value, kept empty', 'https://t.example/pb?token=&e=1', 'https://t.example/pb?token=&e=1'],
    ['a fragment, kept', 'https://t.example/pb?key=1#key=2', 'https://t.example/pb?key=***#key=2'],
  ])('%s', (_case, url, masked) => {
    expect(maskPostbackUrl(url)).toBe(masked);
  });

  test('everything else is kept exactly as called, encoding included', () => {
    const url = 'https://t.example/a%20b/pb?clickid=spring%20sale&goal=deposit&amount=25.5&txid=7f3c';

    expect(maskPostbackUrl(url)).toBe(url);
  });
});

describe('the events an affiliate receives', () => {
  test('an affiliate that never chose receives registration and ftd, as before events could be chosen', () => {
    expect(postbackEventsOf(undefined)).toEqual(['registration', 'ftd']);
  });

  test('a choice is kept in the canonical order, and none at all is a choice', () => {
    expect(postbackEventsOf(['deposit', 'registration', 'cpa'])).toEqual(['registration', 'cpa', 'deposit']);
    expect(postbackEventsOf([])).toEqual([]);
  });

  test('without a URL nothing is received, whatever was chosen', () => {
    expect(receivedEvents({ postback_events: ['deposit'] })).toEqual([]);
    expect(receivedEvents({ postback_url: 'https://t.example/pb', postback_events: ['deposit'] })).toEqual(['deposit']);
  });

  test('an unknown event is refused by name; a list longer than any real choice is refused', () => {
    expect(postbackEventProblems(['ftd', 'withdrawal'])).toEqual(['events has an unknown event "withdrawal" (one of registration, ftd, cpa, deposit)']);
    expect(postbackEventProblems(Array(9).fill('ftd'))).toEqual(['events must list at most 4 events']);
    expect(postbackEventProblems(['registration', 'ftd', 'cpa', 'deposit'])).toEqual([]);
  });
});

const due = dueRow;

describe('placeholders', () => {
  test('each outbox row names its event by its sort key', () => {
    expect(
      [registrationSk('2026-11-23', 'p'), ftdSk('2026-11-23', 'p'), cpaPostbackSk('2026-11-23', 'p'), depositPostbackSk('2026-11-23', 'p', 'ins-1')].map((sk) =>
        postbackEventOf({ sk }),
      ),
    ).toEqual(['registration', 'ftd', 'cpa', 'deposit']);
  });

  test('{payout} is the CPA for a cpa postback and empty for every other event; {sub_id} is on all of them', () => {
    const rows = { registration: due('r#2026-11-23#player-1'), ftd: due('f#2026-11-23#player-1', { amount: '50' }) };
    const cpa = postbackValues(due('pc#2026-11-23#player-1', { amount: '50' }), 'EUR', '30.00');
    const deposit = postbackValues(due('pd#2026-11-23#player-1#ins-1', { amount: '12.5' }), 'EUR', '30.00');

    expect([cpa.event, cpa.payout, cpa.amount, cpa.currency, cpa.sub_id]).toEqual(['cpa', '30.00', '50', 'EUR', 'spring']);
    expect([deposit.event, deposit.payout, deposit.amount, deposit.currency, deposit.sub_id]).toEqual(['deposit', '', '12.5', 'EUR', 'spring']);
    expect(postbackValues(rows.registration, 'EUR', '30.00')).toMatchObject({ payout: '', amount: '', currency: '', sub_id: 'spring' });
    expect(postbackValues(rows.ftd, 'EUR', '30.00')).toMatchObject({ payout: '', amount: '50', currency: 'EUR', sub_id: 'spring' });
  });

  test("a CPA's payout is the deal's amount with 2 decimals, and none below its minimum deposit or under a deal without CPA", () => {
    expect(cpaPayout(plan({ amount: '30', min_deposit: '20' }), { amount: '20' })).toBe('30.00');
    expect(cpaPayout(plan({ amount: '12.345', min_deposit: '0' }), { amount: '1' })).toBe('12.35');
    expect(cpaPayout(plan({ amount: '30', min_deposit: '20' }), { amount: '19.99' })).toBeUndefined();
    expect(cpaPayout(plan(), { amount: '100' })).toBeUndefined();
    expect(cpaPayout(undefined, { amount: '100' })).toBeUndefined();
  });
});

let insert = 0;
let sequence = 0n;
function event(fields: Record<string, unknown>, profileId = 'player-1'): StreamItem {
  return {
    shardId: 'shardId-000000000000',
    sequenceNumber: (49_680_000_000_000_000_000_000n + ++sequence).toString(),
    envelope: {
      v: 1,
      kind: 'event',
      received_at: '2026-11-23T09:00:00.000Z',
      record: { app_id: 'app-1', profile_id: profileId, urm_insert_id: `ins-${++insert}`, urm_date_time: '2026-11-23T09:00:00Z', ...fields },
    },
  };
}
const attribution = (profileId = 'player-1') =>
  event({ event: 'urm_affiliate_attributed', urm_aff_id: 'aff-1', urm_aff_link_id: 'link-1', urm_aff: 'spring' }, profileId);
const deposit = (amount: number, profileId = 'player-1') => event({ event: 'Deposit', amount, currency: 'EUR' }, profileId);

describe('the deposits a player makes for an affiliate', () => {
  const count = (items: StreamItem[], stored?: StoredLedger) => countPlayer({ stored, appId: 'app-1', profileId: 'player-1', items, settings, now: NOW });

  test('each deposit after the attribution is one, the first included, with its own insert id and the sub-id', () => {
    const attributed = attribution();
    const first = deposit(50);
    const bet = event({ event: 'Bet', amount: 5, currency: 'EUR' });
    const second = deposit(20);

    const outcome = count([attributed, first, bet, second]);

    expect(outcome.deposits.map((row) => [row.amount, row.insert_id, row.sub_id])).toEqual([
      ['50', first.envelope.record.urm_insert_id, 'spring'],
      ['20', second.envelope.record.urm_insert_id, 'spring'],
    ]);
  });

  test('deposits before the attribution: the first is released with it, the others were only sums', () => {
    const first = deposit(50);

    const outcome = count([first, deposit(20), attribution()]);

    expect(outcome.deposits.map((row) => [row.amount, row.insert_id])).toEqual([['50', first.envelope.record.urm_insert_id]]);
  });

  test('a redelivered deposit is no new deposit', () => {
    const items = [attribution(), deposit(50)];
    const once = count(items);

    expect(count(items, once.ledger).deposits).toEqual([]);
  });
});

describe('the funnel consumer writes CPA and deposit rows only for affiliates that receive them', () => {
  function consumer(events: readonly PostbackEvent[]) {
    const store = new MemoryFunnelStore();
    const asked: string[] = [];
    const run = countFunnel({
      store,
      settings: async () => settings,
      rejections: new MemoryRejectionLog(),
      now: () => NOW,
      postbackEvents: async (appId, affiliateId) => {
        asked.push(`${appId}/${affiliateId}`);
        return events;
      },
    });
    const keys = () => [...store.rows.values()].map((row) => row.sk).filter((sk) => /^p[cd]#/.test(sk));
    return { store, run, keys, asked };
  }

  test('an affiliate receiving cpa and deposit gets a CPA row per FTD and a deposit row per deposit, due now, expiring', async () => {
    const { store, run, keys } = consumer(['registration', 'ftd', 'cpa', 'deposit']);
    const attributed = attribution();
    const first = deposit(50);
    const second = deposit(20);

    await run([attributed, first, second]);

    expect(keys().sort()).toEqual(
      [
        cpaPostbackSk('2026-11-23', 'player-1'),
        depositPostbackSk('2026-11-23', 'player-1', first.envelope.record.urm_insert_id),
        depositPostbackSk('2026-11-23', 'player-1', second.envelope.record.urm_insert_id),
      ].sort(),
    );
    const row = store.row(affiliatePk('app-1', 'aff-1'), cpaPostbackSk('2026-11-23', 'player-1')) as unknown as Record<string, unknown>;
    expect(row).toMatchObject({ amount: '50', sub_id: 'spring', postback_queue: 'due', postback_due: NOW.toISOString() });
    expect(row.expires_at).toBe(NOW.getTime() / 1000 + 90 * 24 * 60 * 60);
  });

  test('an affiliate with the default events gets neither, and its registration and FTD rows are still due', async () => {
    const { store, run, keys } = consumer(['registration', 'ftd']);

    await run([attribution(), deposit(50)]);

    expect(keys()).toEqual([]);
    expect(store.row(affiliatePk('app-1', 'aff-1'), ftdSk('2026-11-23', 'player-1'))).toMatchObject({ postback_queue: 'due' });
  });

  test('a redelivery after a crash writes the same keys again, never a second postback of one deposit', async () => {
    const { store, run, keys } = consumer(['deposit']);
    const items = [attribution(), deposit(50)];
    store.beforePut = (row) => {
      if ('profile_id' in row) throw new Error('crash before the ledger');
    };
    await expect(run(items)).rejects.toThrow('crash before the ledger');
    store.beforePut = () => {};

    await run(items);
    await run(items);

    expect(keys()).toHaveLength(1);
  });

  test('a batch with no FTD or deposit asks nothing about postbacks', async () => {
    const { run, asked } = consumer(['deposit']);

    await run([attribution(), event({ event: 'Bet', amount: 5, currency: 'EUR' })]);

    expect(asked).toEqual([]);
  });
});

describe('the sender and the new events', () => {
  function setup(events: PostbackEvent[] | undefined, plans: Record<string, Plan | undefined> = {}, script: PostbackResponse[] = [{ status: 200 }]) {
    const outbox = new MemoryPostbackOutbox();
    const settingsStore = new MemoryPostbackSettings();
    settingsStore.urls.set('app-1#aff-1', 'https://tracker.example.com/pb?e={event}&s={sub_id}&m={amount}&p={payout}&token=tk-123&id={event_id}');
    if (events) settingsStore.events.set('app-1#aff-1', events);
    const receiver = new ScriptedReceiver(script);
    const planDays: string[] = [];
    const run = sendPostbacks({
      outbox,
      log: outbox,
      settings: settingsStore,
      secrets: { get: async (name) => (name === postbackSecretName('app-1', 'aff-1') ? 'the-secret' : undefined) },
      currency: async () => 'EUR',
      payoutPlan: async (_app, _affiliate, day) => {
        planDays.push(day);
        return plans[day];
      },
      transport: receiver,
      now: () => NOW,
    });
    return { outbox, receiver, run, planDays };
  }

  test("a cpa postback carries the CPA of the plan in force on the FTD's day as {payout}", async () => {
    const { outbox, receiver, run, planDays } = setup(['cpa'], { '2026-11-20': plan({ amount: '30', min_deposit: '10' }) });
    outbox.add(due('pc#2026-11-20#player-1', { day: '2026-11-20', amount: '50' }));

    const counts = await run();

    expect(counts).toMatchObject({ delivered: 1 });
    expect(planDays).toEqual(['2026-11-20']);
    const eventId = postbackEventId('a#app-1#aff-1', 'pc#2026-11-20#player-1');
    expect(receiver.calls.map((call) => [call.url, call.headers['X-Urm-Event']])).toEqual([
      [`https://tracker.example.com/pb?e=cpa&s=spring&m=50&p=30.00&token=tk-123&id=${eventId}`, 'cpa'],
    ]);
  });

  test('an FTD below the minimum deposit earned no CPA: nothing is sent or logged, and the row is no longer due', async () => {
    const { outbox, receiver, run } = setup(['cpa'], { '2026-11-23': plan({ amount: '30', min_deposit: '100' }) });
    outbox.add(due('pc#2026-11-23#player-1', { amount: '50' }));

    const counts = await run();

    expect(counts).toMatchObject({ due: 1, skipped: 1, delivered: 0 });
    expect(receiver.calls).toEqual([]);
    expect(outbox.log).toEqual([]);
    expect(outbox.row('a#app-1#aff-1', 'pc#2026-11-23#player-1')?.postback_queue).toBeUndefined();
  });

  test('a deposit postback carries its amount and no payout, and the plan is never read', async () => {
    const { outbox, receiver, run, planDays } = setup(['deposit']);
    outbox.add(due('pd#2026-11-23#player-1#ins-9', { amount: '12.5' }));

    await run();

    const query = new URL(receiver.calls[0].url).searchParams;
    expect([receiver.calls.length, query.get('m'), query.get('p')]).toEqual([1, '12.5', '']);
    expect(planDays).toEqual([]);
  });

  test('an event switched off after its row was written is not sent; an affiliate that never chose gets no deposit postbacks', async () => {
    const off = setup(['registration']);
    off.outbox.add(due('f#2026-11-23#player-1', { amount: '50' }));
    const never = setup(undefined);
    never.outbox.add(due('pd#2026-11-23#player-1#ins-9', { amount: '12.5' }));
    never.outbox.add(due('r#2026-11-23#player-2', { profile_id: 'player-2' }));

    expect(await off.run()).toMatchObject({ skipped: 1, delivered: 0 });
    expect(await never.run()).toMatchObject({ skipped: 1, delivered: 1 });
    expect(off.receiver.calls).toEqual([]);
    expect(never.receiver.calls.map((call) => call.headers['X-Urm-Event'])).toEqual(['registration']);
  });

  test('the log keeps the URL called with the token masked, on every attempt; the secret is in no log row', async () => {
    const { outbox, run } = setup(['deposit'], {}, [{ status: 500 }]);
    outbox.add(due('pd#2026-11-23#player-1#ins-9', { amount: '12.5' }));

    await run();

    const eventId = postbackEventId('a#app-1#aff-1', 'pd#2026-11-23#player-1#ins-9');
    expect(outbox.log.map((entry) => [entry.event, entry.outcome, entry.url])).toEqual([
      ['deposit', 'retrying', `https://tracker.example.com/pb?e=deposit&s=spring&m=12.5&p=&token=***&id=${eventId}`],
    ]);
    expect(JSON.stringify(outbox.log)).not.toContain('tk-123');
  });
});
