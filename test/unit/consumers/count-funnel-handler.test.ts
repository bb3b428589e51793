import { beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { makeCountFunnelHandler } from '../../../functions/consumers/count-funnel/make-handler';
import type { App } from '../../../functions/domain/apps';
import type { StoredDayRow, StoredLedger } from '../../../functions/domain/funnel';
import { logger } from '../../../functions/runtime/logger';
import { MemoryAppStore } from '../../support/affiliates';
import { MemoryFunnelStore } from '../../support/funnel-store';
import { MemoryPostbackSettings } from '../../support/postbacks';
import { kinesisEvent, sequenceNumbers, type EventRecordInput } from '../../support/kinesis-event';
import { context } from '../../support/lambda';
import { MemoryRejectionLog } from '../../support/players';

type Item = Record<string, unknown>;

const SHARD = 'shardId-000000000000';
const OTHER_SHARD = 'shardId-000000000001';
const APP = 'app_1';
const moneyEvents = { Deposit: 'deposit', Bet: 'bet', Win: 'win' } as const;
const app = (settings: Partial<App> = { currency: 'EUR', money_events: moneyEvents }): App => ({
  app_id: APP,
  name: 'Test',
  created_at: '2026-11-01T00:00:00Z',
  ...settings,
});

let funnel: MemoryFunnelStore;
let apps: MemoryAppStore;
let rejections: MemoryRejectionLog;
let handler: (event: KinesisStreamEvent) => Promise<KinesisStreamBatchResponse>;

function consumerOf(application: App): void {
  funnel = new MemoryFunnelStore();
  apps = new MemoryAppStore([application]);
  rejections = new MemoryRejectionLog();
  const consume = makeCountFunnelHandler({
    store: funnel,
    apps,
    postbackSettings: new MemoryPostbackSettings(),
    rejections,
    now: () => new Date(),
    conflictRetry: { maxAttempts: 12, baseDelayMs: 1, maxDelayMs: 1, sleep: async () => {} },
  });
  handler = (event) => consume(event, context());
}

let sequence = 1n;
function batchOf(records: Omit<EventRecordInput, 'sequenceNumber'>[]): KinesisStreamEvent {
  const seqs = sequenceNumbers(records.length, sequence);
  sequence += BigInt(records.length);
  return kinesisEvent(records.map((record, i) => ({ shardId: SHARD, ...record, sequenceNumber: seqs[i] })));
}
let insert = 0;
const event = (profileId: string, name: string, fields: Item = {}): Omit<EventRecordInput, 'sequenceNumber'> => ({
  kind: 'event',
  record: { app_id: APP, profile_id: profileId, urm_insert_id: `ev-${++insert}`, urm_date_time: '2026-11-21T10:00:00Z', event: name, ...fields },
});
const attribution = (profileId: string) => event(profileId, 'urm_affiliate_attributed', { urm_aff_id: 'aff-1', urm_aff_link_id: 'link-1' });
const money = (profileId: string, name: string, amount: number) => event(profileId, name, { amount, currency: 'EUR' });
const click = (): Omit<EventRecordInput, 'sequenceNumber'> => ({
  kind: 'click',
  record: {
    app_id: APP,
    profile_id: 'urm-visitor-1',
    urm_insert_id: `click-${++insert}`,
    urm_date_time: '2026-11-21T09:00:00Z',
    affiliate_id: 'aff-1',
    link_id: 'link-1',
  },
});

const DAY_ROW = { pk: `a#${APP}#aff-1`, sk: 'd#2026-11-21#link-1' };
const dayRow = () => funnel.row(DAY_ROW.pk, DAY_ROW.sk) as StoredDayRow | undefined;
/** The application's row of the day: every player's money, whichever affiliate. */
const APP_ROW = { pk: `app#${APP}`, sk: 'd#2026-11-21' };
const appRow = () => funnel.row(APP_ROW.pk, APP_ROW.sk) as StoredDayRow | undefined;
const ledger = (profileId: string) => funnel.row(`p#${APP}#${profileId}`, 'ledger') as StoredLedger | undefined;
const figures = (row: StoredDayRow | undefined) =>
  row && {
    clicks: row.clicks,
    registrations: row.registrations,
    ftds: row.ftds,
    deposit_count: row.deposit_count,
    deposits: row.deposits,
    bets: row.bets,
    wins: row.wins,
  };
const writes = () => funnel.calls.filter((call) => call.op === 'putDayRow' || call.op === 'putLedger');

/** Two attributed players with a deposit, a bet and a win each, and two clicks: one affiliate, link and day. */
const playersBatch = () =>
  batchOf([
    click(),
    click(),
    attribution('p-1'),
    money('p-1', 'Deposit', 100),
    money('p-1', 'Bet', 30.1),
    attribution('p-2'),
    money('p-2', 'Deposit', 20.2),
    money('p-1', 'Win', 10),
    money('p-2', 'Bet', 5),
    event('p-2', 'Login'),
  ]);
const expectedTotals = { clicks: 2, registrations: 2, ftds: 2, deposit_count: 2, deposits: '120.2', bets: '35.1', wins: '10' };

beforeAll(() => {
  jest.spyOn(logger, 'info').mockImplementation(() => {});
  jest.spyOn(logger, 'error').mockImplementation(() => {});
});

beforeEach(() => consumerOf(app()));

describe('count-funnel handler', () => {
  test('a batch is one read of the ledgers, one of the day rows, one write of the trace rows, then one write per day row and per ledger', async () => {
    const response = await handler(playersBatch());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(figures(dayRow())).toEqual(expectedTotals);
    expect(figures(appRow())).toEqual({ ...expectedTotals, clicks: 0, registrations: 0 });
    expect(funnel.calls).toEqual([
      { op: 'ledgers', keys: [`p#${APP}#p-1\u0000ledger`, `p#${APP}#p-2\u0000ledger`] },
      {
        op: 'putTraceRows',
        keys: [
          `a#${APP}#aff-1\u0000r#2026-11-21#p-1`,
          `a#${APP}#aff-1\u0000f#2026-11-21#p-1`,
          `a#${APP}#aff-1\u0000r#2026-11-21#p-2`,
          `a#${APP}#aff-1\u0000f#2026-11-21#p-2`,
        ],
      },
      { op: 'dayRows', keys: [`${DAY_ROW.pk}\u0000${DAY_ROW.sk}`, `${APP_ROW.pk}\u0000${APP_ROW.sk}`] },
      { op: 'putDayRow', keys: [`${DAY_ROW.pk}\u0000${DAY_ROW.sk}`] },
      { op: 'putDayRow', keys: [`${APP_ROW.pk}\u0000${APP_ROW.sk}`] },
      { op: 'putLedger', keys: [`p#${APP}#p-1\u0000ledger`] },
      { op: 'putLedger', keys: [`p#${APP}#p-2\u0000ledger`] },
    ]);
  });

  test('each registration and FTD row is written due for a postback, and the FTD row carries the sub-id', async () => {
    await handler(
      batchOf([event('p-1', 'urm_affiliate_attributed', { urm_aff_id: 'aff-1', urm_aff_link_id: 'link-1', urm_aff: 'spring' }), money('p-1', 'Deposit', 100)]),
    );

    const traceRows = [...funnel.rows.values()].filter((row) => /^[rf]#/.test(row.sk)) as unknown as Item[];
    expect(traceRows.map((row) => [row.sk, row.sub_id, row.postback_queue, typeof row.postback_due])).toEqual([
      ['r#2026-11-21#p-1', 'spring', 'due', 'string'],
      ['f#2026-11-21#p-1', 'spring', 'due', 'string'],
    ]);
    expect(figures(dayRow())).toMatchObject({ registrations: 1, ftds: 1 });
  });

  test('the same batch delivered twice changes nothing the second time', async () => {
    const batch = playersBatch();
    await handler(batch);
    const after = structuredClone([...funnel.rows]);
    funnel.calls.length = 0;

    const response = await handler(batch);

    expect(response).toEqual({ batchItemFailures: [] });
    expect([...funnel.rows]).toEqual(after);
    expect(writes()).toEqual([]);
  });

  test("a player's lifetime money rides on the ledger write, and a redelivery adds nothing to it", async () => {
    const batch = playersBatch();
    await handler(batch);
    const once = ledger('p-1')?.lifetime;
    funnel.calls.length = 0;

    await handler(batch);

    expect(once).toEqual({ deposit_count: 1, deposits: '100', withdrawals: '0', bets: '30.1', wins: '10', bonuses: '0' });
    expect(ledger('p-1')?.lifetime).toEqual(once);
    expect(ledger('p-1')?.last_deposit).toEqual({ day: '2026-11-21', amount: '100', urm_date_time: '2026-11-21T10:00:00Z' });
    expect(writes()).toEqual([]);
  });

  test("a crash after the day rows, before the ledgers, then the redelivery: the same totals as one clean delivery, the application's too", async () => {
    const batch = playersBatch();
    funnel.beforePut = (row) => {
      if (row.sk === 'ledger') throw new Error('Lambda timed out');
    };
    await expect(handler(batch)).rejects.toThrow('Lambda timed out');
    expect(figures(dayRow())).toEqual(expectedTotals);
    funnel.beforePut = () => {};

    const response = await handler(batch);

    expect(response).toEqual({ batchItemFailures: [] });
    expect(figures(dayRow())).toEqual(expectedTotals);
    expect(figures(appRow())).toEqual({ ...expectedTotals, clicks: 0, registrations: 0 });
    expect(ledger('p-1')).toEqual(expect.objectContaining({ version: 1 }));
  });

  test('a failed batch ends only when every write it started has finished, so none lands after the redelivery read', async () => {
    funnel.beforePut = async (row) => {
      if (row.pk === `p#${APP}#p-1`) throw new Error('DynamoDB unavailable');
      if (row.pk === `p#${APP}#p-2`) await new Promise((resolve) => setTimeout(resolve, 50));
    };

    await expect(handler(playersBatch())).rejects.toThrow('DynamoDB unavailable');

    expect(ledger('p-2')).toEqual(expect.objectContaining({ version: 1 }));
  });

  test("a day row another shard's consumer changed meanwhile is read again and gets both", async () => {
    let raced = false;
    funnel.beforePut = (row) => {
      if (raced || !row.sk.startsWith('d#')) return;
      raced = true;
      // Another shard's click lands on the same row first.
      funnel.rows.set(`${DAY_ROW.pk}\u0000${DAY_ROW.sk}`, {
        ...(row as StoredDayRow),
        clicks: 1,
        registrations: 0,
        ftds: 0,
        deposit_count: 0,
        deposits: '0',
        bets: '0',
        wins: '0',
        applied: { [OTHER_SHARD]: '1' },
        version: 1,
      });
    };

    const response = await handler(playersBatch());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(figures(dayRow())).toEqual({ ...expectedTotals, clicks: 3 });
    expect(dayRow()!.applied).toEqual({ [OTHER_SHARD]: '1', [SHARD]: expect.any(String) });
    expect(dayRow()!.version).toBe(2);
  });

  test('events of an application without money events touch no store once its settings are cached', async () => {
    consumerOf(app({}));
    await handler(batchOf([event('p-1', 'Login')]));
    funnel.calls.length = 0;
    apps.reads = 0;

    const response = await handler(batchOf([event('p-1', 'Deposit', { amount: 5, currency: 'EUR' }), event('p-2', 'Login')]));

    expect(response).toEqual({ batchItemFailures: [] });
    expect(funnel.calls).toEqual([]);
    expect(apps.reads).toBe(0);
  });

  test('a money event without an amount is kept in the rejections, counted nowhere', async () => {
    await handler(batchOf([attribution('p-1'), event('p-1', 'Deposit', { currency: 'EUR' })]));

    expect(rejections.rejections.map((r) => [r.app_id, r.profile_id, r.kind, r.reason])).toEqual([
      [APP, 'p-1', 'event', 'money event "Deposit": amount must be a number greater than 0'],
    ]);
    expect(figures(dayRow())).toEqual(expect.objectContaining({ registrations: 1, ftds: 0, deposit_count: 0, deposits: '0' }));
  });

  test('a deposit before the attribution, in an earlier batch, counts once the attribution arrives', async () => {
    await handler(batchOf([money('p-1', 'Deposit', 40)]));
    expect(dayRow()).toBeUndefined();

    await handler(batchOf([attribution('p-1')]));

    expect(figures(dayRow())).toEqual(expect.objectContaining({ registrations: 1, ftds: 1, deposit_count: 1, deposits: '40' }));
  });
});
