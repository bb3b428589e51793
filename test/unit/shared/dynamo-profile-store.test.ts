import { beforeEach, describe, expect, test } from '@jest/globals';
import { ConditionalCheckFailedException, DynamoDBClient, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { unprocessedRetry } from '../../../functions/adapters/batch-write';
import { DynamoProfileStore } from '../../../functions/adapters/dynamo-profile-store';
import { noWaiting, transactionCancelled } from '../../support/retry';

const dynamo = mockClient(DynamoDBDocumentClient);
const retry = noWaiting(unprocessedRetry);
const store = new DynamoProfileStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'profiles', retry);

const profile = (pk: string) => ({ pk, version: 1 });
const requestedKeys = () => dynamo.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems!.profiles.Keys);

beforeEach(() => {
  dynamo.reset();
  retry.waits.length = 0;
});

describe('DynamoProfileStore.getMany', () => {
  test('reads again only the keys DynamoDB left unprocessed, backing off in between, and answers every profile found', async () => {
    dynamo
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { profiles: [profile('a')] }, UnprocessedKeys: { profiles: { Keys: [{ pk: 'b' }, { pk: 'c' }] } } })
      .resolvesOnce({ Responses: { profiles: [profile('b')] }, UnprocessedKeys: { profiles: { Keys: [{ pk: 'c' }] } } })
      .resolves({ Responses: { profiles: [profile('c')] }, UnprocessedKeys: {} });

    const found = await store.getMany(['a', 'b', 'c']);

    expect([...found.keys()]).toEqual(['a', 'b', 'c']);
    expect(requestedKeys()).toEqual([[{ pk: 'a' }, { pk: 'b' }, { pk: 'c' }], [{ pk: 'b' }, { pk: 'c' }], [{ pk: 'c' }]]);
    // random() = 0.5 of 100 and 200 ms
    expect(retry.waits).toEqual([50, 100]);
  });

  test('gives up after 12 attempts, saying how many reads are left', async () => {
    dynamo.on(BatchGetCommand).resolves({ Responses: { profiles: [] }, UnprocessedKeys: { profiles: { Keys: [{ pk: 'a' }] } } });

    await expect(store.getMany(['a'])).rejects.toMatchObject({ message: '1 profile reads still unprocessed after 12 attempts' });

    expect(requestedKeys().length).toBe(12);
  });

  test('reads in chunks of 100 distinct keys', async () => {
    dynamo.on(BatchGetCommand).resolves({ Responses: { profiles: [] } });

    await store.getMany([...Array.from({ length: 150 }, (_, i) => `p${i}`), 'p0']);

    expect(requestedKeys().map((keys) => keys!.length)).toEqual([100, 50]);
  });
});

describe('DynamoProfileStore reads and versioned writes', () => {
  const stored = { pk: 'app_1#p-a', app_id: 'app_1', profile_id: 'p-a', attrs: '{}', exists: true, version: 3, updated_at: '', applied: {}, recent: {} };

  test('a batch read is eventually consistent unless asked, and reads only the fields asked for', async () => {
    dynamo.on(BatchGetCommand).resolves({ Responses: { profiles: [] } });

    await store.getMany(['a', 'b']);
    await store.getMany(['a'], ['pk', 'deleted'], true);

    expect(dynamo.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems!.profiles)).toEqual([
      { Keys: [{ pk: 'a' }, { pk: 'b' }], ConsistentRead: false },
      { Keys: [{ pk: 'a' }], ConsistentRead: true, ProjectionExpression: '#f0, #f1', ExpressionAttributeNames: { '#f0': 'pk', '#f1': 'deleted' } },
    ]);
  });

  test('a read of one profile is consistent when asked', async () => {
    dynamo.on(GetCommand).resolves({ Item: stored });

    expect(await store.get('app_1#p-a', true)).toEqual(stored);

    expect(dynamo).toHaveReceivedCommandWith(GetCommand, { TableName: 'profiles', Key: { pk: 'app_1#p-a' }, ConsistentRead: true });
  });

  test('a new profile is written only if none exists, a known one only at the version read', async () => {
    dynamo.on(PutCommand).resolves({});

    await store.put(stored, undefined);
    await store.put(stored, 2);

    expect(dynamo.commandCalls(PutCommand).map((call) => [call.args[0].input.ConditionExpression, call.args[0].input.ExpressionAttributeValues])).toEqual([
      ['attribute_not_exists(pk)', undefined],
      ['version = :expected', { ':expected': 2 }],
    ]);
  });

  test('a write that lost to another writer answers false, and any other failure throws', async () => {
    dynamo
      .on(PutCommand)
      .rejectsOnce(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }))
      .rejects(new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }));

    expect(await store.put(stored, 2)).toBe(false);
    await expect(store.put(stored, 2)).rejects.toThrow(ProvisionedThroughputExceededException);
  });
});

describe("DynamoProfileStore moving the application's players counter", () => {
  const stored = { pk: 'app_1#p-a', app_id: 'app_1', profile_id: 'p-a', attrs: '{}', exists: true, version: 1, updated_at: '', applied: {}, recent: {} };
  const conflicts = noWaiting({ maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 });
  const counting = new DynamoProfileStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'profiles', retry, 'figures', conflicts);
  test('a new player is one transaction: the profile only if none exists, one more player, one more registration on its day', async () => {
    dynamo.on(TransactWriteCommand).resolves({});

    expect(await counting.put(stored, undefined, { app_id: 'app_1', players: 1, registered_on: '2026-11-21' })).toBe(true);

    expect(dynamo.commandCalls(PutCommand)).toEqual([]);
    expect(dynamo.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems)).toEqual([
      [
        { Put: { TableName: 'profiles', Item: stored, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Update: { TableName: 'figures', Key: { pk: 'app#app_1', sk: 'total' }, UpdateExpression: 'ADD players :n', ExpressionAttributeValues: { ':n': 1 } } },
        {
          Update: {
            TableName: 'figures',
            Key: { pk: 'app#app_1', sk: 'd#2026-11-21' },
            UpdateExpression: 'ADD registrations :one',
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
      ],
    ]);
  });

  test('a delete is the profile at its version and one player less, no registration', async () => {
    dynamo.on(TransactWriteCommand).resolves({});

    await counting.put({ ...stored, exists: false }, 4, { app_id: 'app_1', players: -1 });

    const [items] = dynamo.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
    expect(items.map((item) => item.Put?.ConditionExpression ?? item.Update?.ExpressionAttributeValues)).toEqual(['version = :expected', { ':n': -1 }]);
  });

  test('a profile another writer changed answers false, moving nothing; a transaction in conflict on the counter is tried again', async () => {
    dynamo
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled('ConditionalCheckFailed', 'None', 'None'))
      .rejectsOnce(transactionCancelled('None', 'TransactionConflict', 'None'))
      .resolves({});

    expect(await counting.put(stored, 2, { app_id: 'app_1', players: 1, registered_on: '2026-11-21' })).toBe(false);
    expect(await counting.put(stored, 2, { app_id: 'app_1', players: 1, registered_on: '2026-11-21' })).toBe(true);

    expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(3);
  });

  test('a store without the figures table refuses to move the counter rather than write the profile alone', async () => {
    await expect(store.put(stored, undefined, { app_id: 'app_1', players: 1, registered_on: '2026-11-21' })).rejects.toThrow('no figures table');

    expect(dynamo.calls()).toEqual([]);
  });
});
