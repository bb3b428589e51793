import { beforeEach, describe, expect, test } from '@jest/globals';
import { DynamoDBClient, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoTimelineStore, PUTS_IN_FLIGHT } from '../../../functions/adapters/dynamo-timeline-store';
import { timeKey, type TimelineEntry } from '../../../functions/domain/timeline';
import { PAGE_BYTES, pageItemBytes } from '../../../functions/domain/timeline-pages';
import { TimelinePagesTable } from '../../support/timeline-pages-table';

const TABLE = 'timeline-table';
const PK = 'app_1#player-1';
const dynamo = mockClient(DynamoDBDocumentClient);
const table = new TimelinePagesTable();
const store = new DynamoTimelineStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), TABLE);

/** An event of about 300 bytes, as the bench's: `second` seconds after 10:00. */
function entry(insertId: string, second: number, fields: Partial<TimelineEntry> = {}): TimelineEntry {
  const urmDateTime = new Date(Date.UTC(2026, 10, 21, 10, 0, second)).toISOString();
  return {
    pk: PK,
    insert_id: insertId,
    ts: timeKey(urmDateTime, insertId),
    event: 'bet',
    urm_date_time: urmDateTime,
    received_at: '2026-11-21T10:05:00.000Z',
    shard: 'shardId-000000000000',
    seq: '49659418287166424180426340437516292198866470424436228098',
    attrs: JSON.stringify({ amount: second + 0.5, currency: 'EUR', game: 'slots', session: `s-${second % 7}` }),
    ...fields,
  };
}
const uuidLike = (n: number) => `0000000${n}-9f1c-4c2e-8a51-4a7d2c1e9b3f`.slice(-36);

/** Every entry through `page`, `limit` at a time, following the cursor. */
async function readAll(limit: number, only?: { event: string }): Promise<{ ids: string[]; reads: number }> {
  const ids: string[] = [];
  let start: Record<string, string> | undefined;
  for (let reads = 1; reads <= 100; reads++) {
    const page = await store.page(PK, limit, start, only);
    ids.push(...page.entries.map((e) => e.insert_id));
    if (page.next === undefined) return { ids, reads };
    start = page.next;
  }
  throw new Error('the timeline did not end within 100 pages');
}

beforeEach(() => {
  dynamo.reset();
  table.clear();
  dynamo.on(PutCommand).callsFake(async (input) => table.put(input));
  dynamo.on(GetCommand).callsFake(async (input) => table.get(input));
  dynamo.on(DeleteCommand).callsFake(async (input) => table.delete(input));
  dynamo.on(QueryCommand).callsFake(async (input) => table.query(input));
});

describe('the timeline store packs the events of a profile into pages of one write unit', () => {
  test('ten 300-byte events of one profile written together take four items of at most 1 KB, not ten', async () => {
    const events = Array.from({ length: 10 }, (_, i) => entry(uuidLike(i), i));

    const stored = await store.writeNew(events);

    expect(stored).toBe(10);
    const items = [...table.pages.values()];
    expect(items.length).toBe(4);
    expect(items.every((item) => pageItemBytes(item.pk, item.sk, item.ev) <= PAGE_BYTES)).toBe(true);
    expect(dynamo.commandCalls(PutCommand).length).toBe(4);
    expect(
      table
        .entries(PK)
        .map((e) => e.insert_id)
        .sort(),
    ).toEqual(events.map((e) => e.insert_id).sort());
  });

  test('a lone event is one item under 1 KB, and reads back as it was written', async () => {
    const lone = entry(uuidLike(1), 5, { merged_from: 'anon-1' });

    await store.writeNew([lone]);

    const items = [...table.pages.values()];
    expect(items.length).toBe(1);
    expect(pageItemBytes(items[0].pk, items[0].sk, items[0].ev)).toBeLessThan(PAGE_BYTES);
    expect((await store.page(PK, 10)).entries).toEqual([lone]);
  });

  test('events written in several batches, late ones among them, read back newest first across item boundaries, a few at a time', async () => {
    // Three batches whose times overlap: the third brings events older than the second's.
    await store.writeNew(Array.from({ length: 10 }, (_, i) => entry(`a-${i}`, i * 3)));
    await store.writeNew(Array.from({ length: 10 }, (_, i) => entry(`b-${i}`, 30 + i * 3)));
    await store.writeNew(Array.from({ length: 10 }, (_, i) => entry(`c-${i}`, i * 3 + 1)));
    const expected = table
      .entries(PK)
      .sort((x, y) => (x.ts < y.ts ? 1 : -1))
      .map((e) => e.insert_id);

    for (const limit of [1, 4, 7, 50]) {
      const { ids } = await readAll(limit);
      expect(ids).toEqual(expected);
    }
    expect(expected.slice(0, 3)).toEqual(['b-9', 'b-8', 'b-7']);
    expect(expected.slice(-3)).toEqual(['a-1', 'c-0', 'a-0']);
  });

  test('the event filter keeps the named events only, the limit counting events read', async () => {
    await store.writeNew(Array.from({ length: 12 }, (_, i) => entry(`e-${i}`, i, { event: i % 3 === 0 ? 'deposit' : 'bet' })));

    const first = await store.page(PK, 6, undefined, { event: 'deposit' });
    const rest = await store.page(PK, 6, first.next, { event: 'deposit' });

    expect(first.entries.map((e) => e.insert_id)).toEqual(['e-9', 'e-6']);
    expect(rest.entries.map((e) => e.insert_id)).toEqual(['e-3', 'e-0']);
  });

  test('a batch delivered again stores nothing twice, and a re-send with other content leaves the first as it was', async () => {
    const events = Array.from({ length: 10 }, (_, i) => entry(uuidLike(i), i));
    await store.writeNew(events);

    const again = await store.writeNew(events);
    const resent = await store.writeNew([entry(uuidLike(3), 3, { attrs: '{"amount":500}' }), entry('new-one', 4)]);

    expect([again, resent]).toEqual([0, 1]);
    expect(table.entries(PK).length).toBe(11);
    expect(JSON.parse(table.entry(PK, uuidLike(3))!.attrs)).toEqual({ amount: 3.5, currency: 'EUR', game: 'slots', session: 's-3' });
  });

  test('a re-send stamped anew up to a minute later is stored once, the first kept', async () => {
    await store.writeNew([entry('console-action', 0, { attrs: '{"first":true}' })]);
    await store.writeNew(Array.from({ length: 8 }, (_, i) => entry(`between-${i}`, 10 + i * 5)));

    const stored = await store.writeNew([entry('console-action', 60, { attrs: '{"first":false}' })]);

    expect(stored).toBe(0);
    expect(
      table
        .entries(PK)
        .filter((e) => e.insert_id === 'console-action')
        .map((e) => e.attrs),
    ).toEqual(['{"first":true}']);
  });

  test('a delivery cut short after some pages is completed by the next one, without a duplicate', async () => {
    const events = Array.from({ length: 10 }, (_, i) => entry(uuidLike(i), i));
    let puts = 0;
    dynamo.on(PutCommand).callsFake(async (input) => {
      if (++puts === 3) throw new Error('connection reset');
      return table.put(input);
    });
    await expect(store.writeNew(events)).rejects.toThrow('connection reset');
    dynamo.on(PutCommand).callsFake(async (input) => table.put(input));

    const second = await store.writeNew(events);

    expect(table.entries(PK).length).toBe(10);
    expect(second).toBeGreaterThan(0);
    expect(new Set(table.entries(PK).map((e) => e.insert_id)).size).toBe(10);
  });

  test('removing some events of a page rewrites it with the others, and removing all of them deletes it', async () => {
    const events = Array.from({ length: 10 }, (_, i) => entry(uuidLike(i), i));
    await store.writeNew(events);
    const pagesBefore = table.pages.size;

    // The newest of one page and the oldest of another: both pages keep events.
    await store.remove([events[9], events[1]]);
    expect(
      table
        .entries(PK)
        .map((e) => e.insert_id)
        .sort(),
    ).toEqual(
      events
        .filter((_, i) => i !== 9 && i !== 1)
        .map((e) => e.insert_id)
        .sort(),
    );
    expect(table.pages.size).toBe(pagesBefore);

    await store.remove(events);
    expect(table.pages.size).toBe(0);
  });

  test('an event whose page key a removal left behind can be written again into that page', async () => {
    const events = Array.from({ length: 3 }, (_, i) => entry(uuidLike(i), i));
    await store.writeNew(events);
    await store.remove([events[2]]);

    const stored = await store.writeNew([events[2]]);

    expect(stored).toBe(1);
    expect((await store.page(PK, 10)).entries.map((e) => e.insert_id)).toEqual([uuidLike(2), uuidLike(1), uuidLike(0)]);
  });

  test('a walk in bounded steps reaches every event once', async () => {
    await store.writeNew(Array.from({ length: 40 }, (_, i) => entry(`w-${i}`, i)));

    const seen: string[] = [];
    let start: Record<string, string> | undefined;
    for (let steps = 0; steps < 100; steps++) {
      const page = await store.walk(PK, 8, start);
      seen.push(...page.entries.map((e) => e.insert_id));
      if (!page.next) break;
      start = page.next;
    }

    expect(seen.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `w-${i}`).sort());
  });
});

describe("the timeline store finds a profile's oldest event", () => {
  test('in one query of the oldest pages, although a later page holds an older event (written late)', async () => {
    await store.writeNew(Array.from({ length: 10 }, (_, i) => entry(`a-${i}`, 10 + i * 3)));
    // A late batch: its page's key is newer than the first page's, its oldest event older than all.
    await store.writeNew([entry('late-0', 2), entry('late-1', 15)]);

    dynamo.resetHistory();

    const oldest = await store.oldest(PK);

    expect(oldest?.insert_id).toBe('late-0');
    expect(dynamo.commandCalls(QueryCommand).length).toBe(1);
  });

  test('a profile without events has none', async () => {
    await expect(store.oldest('app_1#nobody')).resolves.toBeUndefined();
  });
});

describe('the timeline store writes on conditions, after consistent lookups', () => {
  const of = (pk: string, insertId: string, second: number) => entry(insertId, second, { pk });

  test('each profile is one consistent lookup of the pages around its new events, and each new page is put only where none is', async () => {
    await store.writeNew([of('app_1#p-0', 'a', 1), of('app_1#p-1', 'b', 2), of('app_1#p-0', 'c', 3)]);

    const lookups = dynamo.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(lookups.map((input) => [input.ExpressionAttributeValues![':pk'], input.ConsistentRead])).toEqual([
      ['app_1#p-0', true],
      ['app_1#p-1', true],
    ]);
    const puts = dynamo.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(puts.length).toBeGreaterThan(0);
    expect(puts.every((input) => input.ConditionExpression === 'attribute_not_exists(sk)')).toBe(true);
  });

  test('a page a removal leaves empty is deleted only if it did not change since it was read', async () => {
    const events = [entry('x-1', 1), entry('x-2', 2)];
    await store.writeNew(events);
    const [page] = [...table.pages.values()];

    await store.remove(events);

    expect(dynamo.commandCalls(DeleteCommand).map((call) => call.args[0].input)).toEqual([
      { TableName: TABLE, Key: { pk: PK, sk: page.sk }, ConditionExpression: 'ev = :ev', ExpressionAttributeValues: { ':ev': page.ev } },
    ]);
  });

  test(`writes at most ${PUTS_IN_FLIGHT} profiles at once`, async () => {
    const puts = { inFlight: 0, most: 0 };
    dynamo.on(PutCommand).callsFake(async (input) => {
      puts.inFlight++;
      puts.most = Math.max(puts.most, puts.inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      puts.inFlight--;
      return table.put(input);
    });

    await store.writeNew(Array.from({ length: 60 }, (_, i) => of(`app_1#p-${i}`, `e-${i}`, i)));

    expect(puts.most).toBe(PUTS_IN_FLIGHT);
    expect(table.entries().length).toBe(60);
  });

  test('a throttled put fails the write once the puts under way have settled, and the pages not yet sent are not sent', async () => {
    const puts = { count: 0, inFlight: 0 };
    dynamo.on(PutCommand).callsFake(async (input) => {
      if (++puts.count === 3) throw new ProvisionedThroughputExceededException({ message: 'Rate exceeded', $metadata: {} });
      puts.inFlight++;
      try {
        // A round trip: the other puts of the batch start meanwhile.
        await new Promise((resolve) => setImmediate(resolve));
        return table.put(input);
      } finally {
        puts.inFlight--;
      }
    });
    // 20 events of 300 bytes for each of three profiles: several pages each.
    const events = Array.from({ length: 60 }, (_, i) => of(`app_1#p-${i % 3}`, `e-${i}`, i));

    await expect(store.writeNew(events)).rejects.toThrow(ProvisionedThroughputExceededException);

    // Three profiles' first pages were under way when the third failed; the pages behind them never went.
    expect(puts).toEqual({ count: 3, inFlight: 0 });
    expect(table.entries().length).toBeLessThan(60);
  });
});
