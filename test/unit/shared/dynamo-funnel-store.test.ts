import { beforeEach, describe, expect, test } from '@jest/globals';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoFunnelStore } from '../../../functions/adapters/dynamo-funnel-store';
import type { StoredDayRow, StoredLedger, TraceRow } from '../../../functions/domain/funnel';

const dynamo = mockClient(DynamoDBDocumentClient);
const store = new DynamoFunnelStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'funnel');

const dayRow = { pk: 'a#app_1#aff-1', sk: 'd#2026-11-21#link-1', version: 2 } as unknown as StoredDayRow;
const ledger = { pk: 'p#app_1#p-1', sk: 'ledger', version: 1 } as unknown as StoredLedger;
const trace = (sk: string) => ({ pk: 'a#app_1#aff-1', sk, app_id: 'app_1' }) as unknown as TraceRow;

beforeEach(() => {
  dynamo.reset();
});

describe('DynamoFunnelStore, as the funnel consumer writes it', () => {
  test('reads ledgers and day rows consistently, each key once', async () => {
    dynamo.on(BatchGetCommand).resolves({ Responses: { funnel: [] }, UnprocessedKeys: {} });

    await store.ledgers(['p#app_1#p-1', 'p#app_1#p-2', 'p#app_1#p-1']);
    await store.dayRows([{ pk: dayRow.pk, sk: dayRow.sk }]);

    expect(dynamo.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems!.funnel)).toEqual([
      {
        Keys: [
          { pk: 'p#app_1#p-1', sk: 'ledger' },
          { pk: 'p#app_1#p-2', sk: 'ledger' },
        ],
        ConsistentRead: true,
      },
      { Keys: [{ pk: dayRow.pk, sk: dayRow.sk }], ConsistentRead: true },
    ]);
  });

  test("reads one player's ledger with one GetItem, and none as undefined", async () => {
    dynamo.on(GetCommand).resolvesOnce({ Item: ledger }).resolvesOnce({});

    const found = [await store.ledger('app_1', 'p-1'), await store.ledger('app_1', 'p-2')];

    expect(found).toEqual([ledger, undefined]);
    expect(dynamo.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([
      { TableName: 'funnel', Key: { pk: 'p#app_1#p-1', sk: 'ledger' } },
      { TableName: 'funnel', Key: { pk: 'p#app_1#p-2', sk: 'ledger' } },
    ]);
  });

  test('writes the trace rows of a batch in one BatchWriteItem, each key once', async () => {
    dynamo.on(BatchWriteCommand).resolves({ UnprocessedItems: {} });

    await store.putTraceRows([trace('r#2026-11-21#p-1'), trace('f#2026-11-21#p-1'), trace('r#2026-11-21#p-1')]);

    expect(
      dynamo.commandCalls(BatchWriteCommand).map((call) => call.args[0].input.RequestItems!.funnel.map((request) => request.PutRequest!.Item!.sk)),
    ).toEqual([['r#2026-11-21#p-1', 'f#2026-11-21#p-1']]);
  });

  test('writes a day row only if none exists, or at the version read, and answers false when another writer got there first', async () => {
    dynamo
      .on(PutCommand)
      .resolvesOnce({})
      .resolvesOnce({})
      .rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));

    const outcomes = [await store.putDayRow(dayRow, undefined), await store.putDayRow(dayRow, 1), await store.putLedger(ledger, 1)];

    expect(outcomes).toEqual([true, true, false]);
    expect(dynamo.commandCalls(PutCommand).map((call) => [call.args[0].input.ConditionExpression, call.args[0].input.ExpressionAttributeValues])).toEqual([
      ['attribute_not_exists(pk)', undefined],
      ['version = :expected', { ':expected': 1 }],
      ['version = :expected', { ':expected': 1 }],
    ]);
  });
});
