import { MemoryPostbackSettings } from '../../support/postbacks';
import { beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { makeCountFunnelHandler } from '../../../functions/consumers/count-funnel/make-handler';
import type { StoredDayRow } from '../../../functions/domain/funnel';
import { logger } from '../../../functions/runtime/logger';
import { MemoryAppStore } from '../../support/affiliates';
import { MemoryFunnelStore } from '../../support/funnel-store';
import { kinesisEvent, sequenceNumbers, type EventRecordInput } from '../../support/kinesis-event';
import { context } from '../../support/lambda';
import { MemoryRejectionLog } from '../../support/players';

const SHARD = 'shardId-000000000000';
const OTHER_SHARD = 'shardId-000000000001';
const APP = 'app_1';
const PK = `a#${APP}#aff-1`;
const DAY = '2026-11-21';

let funnel: MemoryFunnelStore;
let handler: (event: KinesisStreamEvent) => Promise<KinesisStreamBatchResponse>;
let sequence = 1n;
let insert = 0;

beforeAll(() => {
  jest.spyOn(logger, 'info').mockImplementation(() => {});
  jest.spyOn(logger, 'error').mockImplementation(() => {});
});

beforeEach(() => {
  funnel = new MemoryFunnelStore();
  const consume = makeCountFunnelHandler({
    store: funnel,
    apps: new MemoryAppStore([
      { app_id: APP, name: 'Test', created_at: '2026-11-01T00:00:00Z', currency: 'EUR', money_events: { Deposit: 'deposit', Bet: 'bet' } },
    ]),
    rejections: new MemoryRejectionLog(),
    postbackSettings: new MemoryPostbackSettings(),
    now: () => new Date(),
    conflictRetry: { maxAttempts: 12, baseDelayMs: 1, maxDelayMs: 1, sleep: async () => {} },
  });
  handler = (event) => consume(event, context());
});

function batchOf(records: Omit<EventRecordInput, 'sequenceNumber'>[], shardId = SHARD): KinesisStreamEvent {
  const seqs = sequenceNumbers(records.length, sequence);
  sequence += BigInt(records.length);
  return kinesisEvent(records.map((record, i) => ({ shardId, ...record, sequenceNumber: seqs[i] })));
}

const click = (subId?: string, linkId = 'link-1'): Omit<EventRecordInput, 'sequenceNumber'> => ({
  kind: 'click',
  record: {
    app_id: APP,
    profile_id: `urm-visitor-${++insert}`,
    urm_insert_id: `click-${insert}`,
    urm_date_time: `${DAY}T09:00:00Z`,
    affiliate_id: 'aff-1',
    link_id: linkId,
    ...(subId === undefined ? {} : { sub_id: subId }),
  },
});
const event = (profileId: string, name: string, fields: Record<string, unknown>): Omit<EventRecordInput, 'sequenceNumber'> => ({
  kind: 'event',
  record: { app_id: APP, profile_id: profileId, urm_insert_id: `ev-${++insert}`, urm_date_time: `${DAY}T10:00:00Z`, event: name, ...fields },
});
const attribution = (profileId: string, subId?: string) =>
  event(profileId, 'urm_affiliate_attributed', { urm_aff_id: 'aff-1', urm_aff_link_id: 'link-1', ...(subId === undefined ? {} : { urm_aff: subId }) });
const deposit = (profileId: string, amount: number) => event(profileId, 'Deposit', { amount, currency: 'EUR' });

const dayRow = () => funnel.row(PK, `d#${DAY}#link-1`) as StoredDayRow | undefined;
const subIdRow = (subId: string, linkId = 'link-1') => funnel.row(PK, `s#${DAY}#${linkId}#${subId}`) as StoredDayRow | undefined;
const subIdRows = () => [...funnel.rows.values()].filter((row) => row.sk.startsWith('s#')) as StoredDayRow[];
const counts = (row: StoredDayRow | undefined) =>
  row && { clicks: row.clicks, registrations: row.registrations, ftds: row.ftds, deposit_count: row.deposit_count, deposits: row.deposits };
const writes = () => funnel.calls.filter((call) => call.op === 'putDayRow' || call.op === 'putLedger');

describe('count-funnel: sub-id rows', () => {
  test('clicks, registrations, FTDs and money count per sub-id as well as per link', async () => {
    await handler(
      batchOf([
        click('spring'),
        click('spring'),
        click('autumn'),
        click(),
        attribution('p-1', 'spring'),
        deposit('p-1', 25.5),
        attribution('p-2', 'autumn'),
        deposit('p-2', 10),
        attribution('p-3'),
      ]),
    );

    expect(counts(dayRow())).toEqual({ clicks: 4, registrations: 3, ftds: 2, deposit_count: 2, deposits: '35.5' });
    expect(dayRow()!.sub_ids).toEqual(['spring', 'autumn']);
    expect(counts(subIdRow('spring'))).toEqual({ clicks: 2, registrations: 1, ftds: 1, deposit_count: 1, deposits: '25.5' });
    expect(counts(subIdRow('autumn'))).toEqual({ clicks: 1, registrations: 1, ftds: 1, deposit_count: 1, deposits: '10' });
    expect(subIdRow('spring')).toMatchObject({ affiliate_id: 'aff-1', link_id: 'link-1', sub_id: 'spring', day: DAY });
    expect(subIdRows()).toHaveLength(2);
  });

  test('a batch without sub-ids makes no call more than before', async () => {
    await handler(batchOf([click(), click(), attribution('p-1'), deposit('p-1', 5)]));

    expect(funnel.calls.filter((call) => call.keys.some((key) => key.includes('\u0000s#')))).toEqual([]);
    expect(dayRow()!.sub_ids).toBeUndefined();
  });

  test("the sub-id rows ride in the day rows' one read, and cost one write each", async () => {
    await handler(batchOf([click('spring'), click('spring'), click('autumn')]));

    expect(funnel.calls).toEqual([
      {
        op: 'dayRows',
        keys: [`${PK}\u0000d#${DAY}#link-1`, `${PK}\u0000s#${DAY}#link-1#spring`, `${PK}\u0000s#${DAY}#link-1#(other)`, `${PK}\u0000s#${DAY}#link-1#autumn`],
      },
      { op: 'putDayRow', keys: [`${PK}\u0000d#${DAY}#link-1`] },
      { op: 'putDayRow', keys: [`${PK}\u0000s#${DAY}#link-1#spring`] },
      { op: 'putDayRow', keys: [`${PK}\u0000s#${DAY}#link-1#autumn`] },
    ]);
  });

  test('past 100 sub-ids on a link and day, the rest count under (other), and the totals still add up', async () => {
    const subIds = Array.from({ length: 250 }, (_, i) => `sub-${String(i).padStart(3, '0')}`);
    for (let start = 0; start < subIds.length; start += 100) await handler(batchOf(subIds.slice(start, start + 100).map((subId) => click(subId))));

    expect(dayRow()!.clicks).toBe(250);
    expect(dayRow()!.sub_ids).toEqual(subIds.slice(0, 100));
    expect(subIdRows()).toHaveLength(101);
    expect(subIdRow('sub-099')!.clicks).toBe(1);
    expect(subIdRow('sub-100')).toBeUndefined();
    expect(subIdRow('(other)')!.clicks).toBe(150);
    expect(subIdRows().reduce((n, row) => n + row.clicks, 0)).toBe(250);
  });

  test('a sub-id already given its row keeps it after the bound is reached', async () => {
    await handler(batchOf(Array.from({ length: 100 }, (_, i) => click(`s${i}`))));

    await handler(batchOf([click('s7'), click('late')]));

    expect(subIdRow('s7')!.clicks).toBe(2);
    expect(subIdRow('(other)')!.clicks).toBe(1);
  });

  test('the bound is per link: another link has its own 100', async () => {
    await handler(batchOf(Array.from({ length: 100 }, (_, i) => click(`s${i}`))));

    await handler(batchOf([click('fresh', 'link-2')]));

    expect(subIdRow('fresh', 'link-2')!.clicks).toBe(1);
  });

  test('a sub-id no tracking link could carry (set_affiliate takes any text) counts under (other), never as its own key', async () => {
    await handler(batchOf([attribution('p-1', 'a#b c'), attribution('p-2', '(other)')]));

    expect(dayRow()!.sub_ids).toBeUndefined();
    expect(subIdRows().map((row) => [row.sk, row.registrations])).toEqual([[`s#${DAY}#link-1#(other)`, 2]]);
  });

  test('the same batch delivered twice changes no sub-id row the second time', async () => {
    const batch = batchOf([click('spring'), attribution('p-1', 'spring'), deposit('p-1', 40)]);
    await handler(batch);
    const after = structuredClone([...funnel.rows]);
    funnel.calls.length = 0;

    await handler(batch);

    expect([...funnel.rows]).toEqual(after);
    expect(writes()).toEqual([]);
  });

  test('a crash between the day row and its sub-id rows, then the redelivery: each sub-id row counts once', async () => {
    const full = Array.from({ length: 99 }, (_, i) => click(`s${i}`));
    await handler(batchOf(full));
    // The 100th sub-id takes the last place; the 101st goes to (other).
    const batch = batchOf([click('hundredth'), click('past-bound'), attribution('p-1', 'hundredth'), deposit('p-1', 30)]);
    funnel.beforePut = (row) => {
      if (row.sk.startsWith('s#')) throw new Error('Lambda timed out');
    };
    await expect(handler(batch)).rejects.toThrow('Lambda timed out');
    expect(dayRow()!.clicks).toBe(101);
    funnel.beforePut = () => {};

    const response = await handler(batch);

    expect(response).toEqual({ batchItemFailures: [] });
    expect(counts(subIdRow('hundredth'))).toEqual({ clicks: 1, registrations: 1, ftds: 1, deposit_count: 1, deposits: '30' });
    expect(counts(subIdRow('(other)'))).toEqual({ clicks: 1, registrations: 0, ftds: 0, deposit_count: 0, deposits: '0' });
    expect(subIdRows().reduce((n, row) => n + row.clicks, 0)).toBe(dayRow()!.clicks);

    funnel.calls.length = 0;
    await handler(batch);
    expect(writes()).toEqual([]);
  });

  test('a day row another shard filled meanwhile decides again: the sub-id counts in the row the written day row names', async () => {
    await handler(batchOf(Array.from({ length: 99 }, (_, i) => click(`s${i}`))));
    let raced = false;
    funnel.beforePut = (row) => {
      if (raced || !row.sk.startsWith('d#')) return;
      raced = true;
      // Another shard's click takes the last place first.
      const stored = dayRow()!;
      funnel.rows.set(`${PK}\u0000${stored.sk}`, {
        ...stored,
        clicks: stored.clicks + 1,
        sub_ids: [...stored.sub_ids!, 'other-shard'],
        applied: { ...stored.applied, [OTHER_SHARD]: '1' },
        version: stored.version + 1,
      });
    };

    await handler(batchOf([click('mine')]));

    expect(dayRow()!.sub_ids).toHaveLength(100);
    expect(dayRow()!.sub_ids).not.toContain('mine');
    expect(subIdRow('mine')).toBeUndefined();
    expect(subIdRow('(other)')!.clicks).toBe(1);
  });
});
