import { beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  type BatchGetCommandInput,
  type BatchWriteCommandInput,
  type GetCommandInput,
  type PutCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { Context, KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { backoffTimer } from '../../../functions/adapters/retry';
import { kinesisEvent, sequenceNumbers, type EventRecordInput } from '../../support/kinesis-event';
import { context, setFunctionEnv } from '../../support/lambda';

const FUNNEL = 'funnel-table';
const APPS = 'apps-table';
const REJECTIONS = 'rejections-table';
setFunctionEnv({ FUNNEL_TABLE: FUNNEL, APPS_TABLE: APPS, REJECTIONS_TABLE: REJECTIONS });

type Handler = (event: KinesisStreamEvent, context: Context) => Promise<KinesisStreamBatchResponse>;
type Item = Record<string, unknown>;

const SHARD = 'shardId-000000000000';
const OTHER_SHARD = 'shardId-000000000001';
const moneyEvents = { Deposit: 'deposit', Bet: 'bet', Win: 'win' };

// An in-memory DynamoDB behind the mocked document client.
const dynamo = mockClient(DynamoDBDocumentClient);
const funnel = new Map<string, Item>();
const apps = new Map<string, Item>();
const rejections = new Map<string, Item>();
/** Runs before a put of the funnel table is applied: a test's way to crash or race. */
let beforeFunnelPut: (item: Item) => void | Promise<void> = () => {};

const clone = <T>(value: T): T => structuredClone(value);
const keyOf = (item: Item) => `${item.pk as string}\u0000${item.sk as string}`;

function fakeDynamo(): void {
  dynamo.on(GetCommand).callsFake(async (input: GetCommandInput) => {
    expect(input.TableName).toBe(APPS);
    return { Item: clone(apps.get(input.Key!.app_id as string)) };
  });
  dynamo.on(BatchGetCommand).callsFake(async (input: BatchGetCommandInput) => {
    const { Keys, ConsistentRead } = input.RequestItems![FUNNEL];
    expect(ConsistentRead).toBe(true);
    const found = Keys!.map((key) => funnel.get(keyOf(key))).filter((item) => item !== undefined);
    return { Responses: { [FUNNEL]: clone(found) }, UnprocessedKeys: {} };
  });
  dynamo.on(BatchWriteCommand).callsFake(async (input: BatchWriteCommandInput) => {
    for (const request of input.RequestItems![FUNNEL]) funnel.set(keyOf(request.PutRequest!.Item!), clone(request.PutRequest!.Item!));
    return { UnprocessedItems: {} };
  });
  dynamo.on(PutCommand).callsFake(async (input: PutCommandInput) => {
    const item = input.Item!;
    if (input.TableName === REJECTIONS) {
      rejections.set(`${item.received_at as string}#${item.shard as string}#${item.seq as string}`, clone(item));
      return {};
    }
    expect(input.TableName).toBe(FUNNEL);
    await beforeFunnelPut(item);
    const current = funnel.get(keyOf(item));
    const holds =
      input.ConditionExpression === 'attribute_not_exists(pk)'
        ? current === undefined
        : current !== undefined && current.version === input.ExpressionAttributeValues![':expected'];
    if (!holds) throw new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
    funnel.set(keyOf(item), clone(item));
    return {};
  });
}

let sequence = 1n;
let appCounter = 0;
/** A fresh application per test: the handler's settings cache outlives a test. */
function newApp(settings: Item = { currency: 'EUR', money_events: moneyEvents }): string {
  const appId = `app_${++appCounter}`;
  apps.set(appId, { app_id: appId, name: 'Test', created_at: '2026-11-01T00:00:00Z', ...settings });
  return appId;
}
function batchOf(records: Omit<EventRecordInput, 'sequenceNumber'>[]): KinesisStreamEvent {
  const seqs = sequenceNumbers(records.length, sequence);
  sequence += BigInt(records.length);
  return kinesisEvent(records.map((record, i) => ({ shardId: SHARD, ...record, sequenceNumber: seqs[i] })));
}
let insert = 0;
const event = (appId: string, profileId: string, name: string, fields: Item = {}): Omit<EventRecordInput, 'sequenceNumber'> => ({
  kind: 'event',
  record: { app_id: appId, profile_id: profileId, urm_insert_id: `ev-${++insert}`, urm_date_time: '2026-11-21T10:00:00Z', event: name, ...fields },
});
const attribution = (appId: string, profileId: string) =>
  event(appId, profileId, 'urm_affiliate_attributed', { urm_aff_id: 'aff-1', urm_aff_link_id: 'link-1' });
const money = (appId: string, profileId: string, name: string, amount: number) => event(appId, profileId, name, { amount, currency: 'EUR' });
const click = (appId: string): Omit<EventRecordInput, 'sequenceNumber'> => ({
  kind: 'click',
  record: {
    app_id: appId,
    profile_id: 'urm-visitor-1',
    urm_insert_id: `click-${++insert}`,
    urm_date_time: '2026-11-21T09:00:00Z',
    affiliate_id: 'aff-1',
    link_id: 'link-1',
  },
});

const dayRow = (appId: string) => funnel.get(`a#${appId}#aff-1\u0000d#2026-11-21#link-1`);
const figures = (row: Item | undefined) =>
  row && {
    clicks: row.clicks,
    registrations: row.registrations,
    ftds: row.ftds,
    deposit_count: row.deposit_count,
    deposits: row.deposits,
    bets: row.bets,
    wins: row.wins,
  };
const funnelPuts = () =>
  dynamo
    .commandCalls(PutCommand)
    .map((call) => call.args[0].input)
    .filter((input) => input.TableName === FUNNEL);

/** Two attributed players with a deposit, a bet and a win each, and two clicks: one affiliate, link and day. */
const playersBatch = (appId: string) =>
  batchOf([
    click(appId),
    click(appId),
    attribution(appId, 'p-1'),
    money(appId, 'p-1', 'Deposit', 100),
    money(appId, 'p-1', 'Bet', 30.1),
    attribution(appId, 'p-2'),
    money(appId, 'p-2', 'Deposit', 20.2),
    money(appId, 'p-1', 'Win', 10),
    money(appId, 'p-2', 'Bet', 5),
    event(appId, 'p-2', 'Login'),
  ]);
const expectedTotals = { clicks: 2, registrations: 2, ftds: 2, deposit_count: 2, deposits: '120.2', bets: '35.1', wins: '10' };

let handler: Handler;
beforeAll(async () => {
  handler = (await import('../../../functions/consumers/count-funnel/handler')).handler as unknown as Handler;
  jest.spyOn(backoffTimer, 'sleep').mockImplementation(async () => {});
  const { logger } = await import('../../../functions/runtime/logger');
  jest.spyOn(logger, 'info').mockImplementation(() => {});
  jest.spyOn(logger, 'error').mockImplementation(() => {});
});

beforeEach(() => {
  dynamo.reset();
  funnel.clear();
  rejections.clear();
  beforeFunnelPut = () => {};
  fakeDynamo();
});

describe('count-funnel handler', () => {
  test('a batch is one read of the ledgers, one of the day rows, and one write per day row and per ledger', async () => {
    const appId = newApp();

    const response = await handler(playersBatch(appId), context());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(figures(dayRow(appId))).toEqual(expectedTotals);
    expect(dynamo.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems![FUNNEL].Keys)).toEqual([
      [
        { pk: `p#${appId}#p-1`, sk: 'ledger' },
        { pk: `p#${appId}#p-2`, sk: 'ledger' },
      ],
      [{ pk: `a#${appId}#aff-1`, sk: 'd#2026-11-21#link-1' }],
    ]);
    expect(funnelPuts().map((input) => input.Item!.sk)).toEqual(['d#2026-11-21#link-1', 'ledger', 'ledger']);
    // The registration and FTD rows of both players, in one BatchWriteItem.
    expect([...funnel.keys()].filter((key) => /\u0000[rf]#/.test(key)).sort()).toEqual([
      `a#${appId}#aff-1\u0000f#2026-11-21#p-1`,
      `a#${appId}#aff-1\u0000f#2026-11-21#p-2`,
      `a#${appId}#aff-1\u0000r#2026-11-21#p-1`,
      `a#${appId}#aff-1\u0000r#2026-11-21#p-2`,
    ]);
    expect(dynamo).toHaveReceivedCommandTimes(BatchWriteCommand, 1);
  });

  test('each registration and FTD row is written due for a postback, and the FTD row carries the sub-id', async () => {
    const appId = newApp();

    await handler(
      batchOf([
        event(appId, 'p-1', 'urm_affiliate_attributed', { urm_aff_id: 'aff-1', urm_aff_link_id: 'link-1', urm_aff: 'spring' }),
        money(appId, 'p-1', 'Deposit', 100),
      ]),
      context(),
    );

    const traceRows = [...funnel.values()].filter((item) => /^[rf]#/.test(item.sk as string));
    expect(traceRows.map((row) => [row.sk, row.sub_id, row.postback_queue, typeof row.postback_due])).toEqual([
      ['r#2026-11-21#p-1', 'spring', 'due', 'string'],
      ['f#2026-11-21#p-1', 'spring', 'due', 'string'],
    ]);
    expect(figures(dayRow(appId))).toMatchObject({ registrations: 1, ftds: 1 });
  });

  test('the same batch delivered twice changes nothing the second time', async () => {
    const appId = newApp();
    const batch = playersBatch(appId);
    await handler(batch, context());
    const after = clone([...funnel]);
    dynamo.resetHistory();

    const response = await handler(batch, context());

    expect(response).toEqual({ batchItemFailures: [] });
    expect([...funnel]).toEqual(after);
    expect(funnelPuts()).toEqual([]);
  });

  test('a crash after the day rows, before the ledgers, then the redelivery: the same totals as one clean delivery', async () => {
    const appId = newApp();
    const batch = playersBatch(appId);
    beforeFunnelPut = (item) => {
      if (item.sk === 'ledger') throw new Error('Lambda timed out');
    };
    await expect(handler(batch, context())).rejects.toThrow('Lambda timed out');
    expect(figures(dayRow(appId))).toEqual(expectedTotals);
    beforeFunnelPut = () => {};

    const response = await handler(batch, context());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(figures(dayRow(appId))).toEqual(expectedTotals);
    expect(funnel.get(`p#${appId}#p-1\u0000ledger`)).toEqual(expect.objectContaining({ version: 1 }));
  });

  test('a failed batch ends only when every write it started has finished, so none lands after the redelivery read', async () => {
    const appId = newApp();
    beforeFunnelPut = async (item) => {
      if (item.pk === `p#${appId}#p-1`) throw new Error('DynamoDB unavailable');
      if (item.pk === `p#${appId}#p-2`) await new Promise((resolve) => setTimeout(resolve, 50));
    };

    await expect(handler(playersBatch(appId), context())).rejects.toThrow('DynamoDB unavailable');

    expect(funnel.get(`p#${appId}#p-2\u0000ledger`)).toEqual(expect.objectContaining({ version: 1 }));
  });

  test("a day row another shard's consumer changed meanwhile is read again and gets both", async () => {
    const appId = newApp();
    let raced = false;
    beforeFunnelPut = (item) => {
      if (raced || !(item.sk as string).startsWith('d#')) return;
      raced = true;
      // Another shard's click lands on the same row first.
      const row = {
        ...item,
        clicks: 1,
        registrations: 0,
        ftds: 0,
        deposit_count: 0,
        deposits: '0',
        bets: '0',
        wins: '0',
        applied: { [OTHER_SHARD]: '1' },
        version: 1,
      };
      funnel.set(keyOf(row), row);
    };

    const response = await handler(playersBatch(appId), context());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(figures(dayRow(appId))).toEqual({ ...expectedTotals, clicks: 3 });
    expect(dayRow(appId)!.applied).toEqual({ [OTHER_SHARD]: '1', [SHARD]: expect.any(String) });
    expect(dayRow(appId)!.version).toBe(2);
  });

  test('events of an application without money events cost no DynamoDB call once its settings are cached', async () => {
    const appId = newApp({});
    await handler(batchOf([event(appId, 'p-1', 'Login')]), context());
    dynamo.resetHistory();

    const response = await handler(batchOf([event(appId, 'p-1', 'Deposit', { amount: 5, currency: 'EUR' }), event(appId, 'p-2', 'Login')]), context());

    expect(response).toEqual({ batchItemFailures: [] });
    expect(dynamo.calls()).toHaveLength(0);
  });

  test('a money event without an amount is kept in the rejections table, counted nowhere', async () => {
    const appId = newApp();

    await handler(batchOf([attribution(appId, 'p-1'), event(appId, 'p-1', 'Deposit', { currency: 'EUR' })]), context());

    expect([...rejections.values()].map((r) => [r.app_id, r.profile_id, r.kind, r.reason])).toEqual([
      [appId, 'p-1', 'event', 'money event "Deposit": amount must be a number greater than 0'],
    ]);
    expect(figures(dayRow(appId))).toEqual(expect.objectContaining({ registrations: 1, ftds: 0, deposit_count: 0, deposits: '0' }));
  });

  test('a deposit before the attribution, in an earlier batch, counts once the attribution arrives', async () => {
    const appId = newApp();
    await handler(batchOf([money(appId, 'p-1', 'Deposit', 40)]), context());
    expect(dayRow(appId)).toBeUndefined();

    await handler(batchOf([attribution(appId, 'p-1')]), context());

    expect(figures(dayRow(appId))).toEqual(expect.objectContaining({ registrations: 1, ftds: 1, deposit_count: 1, deposits: '40' }));
  });
});
