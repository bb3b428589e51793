import { beforeEach, describe, expect, test } from '@jest/globals';
import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { conflictRetry, DynamoEnterpriseUserStore } from '../../../functions/adapters/dynamo-enterprise-user-store';
import type { EnterpriseUser } from '../../../functions/domain/enterprise';
import { noWaiting, transactionCancelled } from '../../support/retry';

const dynamo = mockClient(DynamoDBDocumentClient);
const retry = noWaiting(conflictRetry);
const store = new DynamoEnterpriseUserStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'users', retry);

const user: EnterpriseUser = {
  app_id: 'app_1',
  user_id: 'usr_1',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  created_at: '2026-11-21T10:00:00.000Z',
  role: 'viewer',
};
const transactions = () => dynamo.commandCalls(TransactWriteCommand).length;

beforeEach(() => {
  dynamo.reset();
  retry.waits.length = 0;
});

describe('DynamoEnterpriseUserStore.create', () => {
  test('retries a transaction that collided with another on the same items, backing off in between', async () => {
    dynamo
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled('None', 'TransactionConflict'))
      .rejectsOnce(transactionCancelled('TransactionConflict', 'None'))
      .resolves({});

    expect(await store.create(user)).toEqual(user);
    expect(transactions()).toBe(3);
    // random() = 0.5 of 100 and 200 ms
    expect(retry.waits).toEqual([50, 100]);
  });

  test('gives up after 5 attempts and throws the cancellation', async () => {
    dynamo.on(TransactWriteCommand).rejects(transactionCancelled('None', 'TransactionConflict'));

    await expect(store.create(user)).rejects.toThrow(TransactionCanceledException);

    expect(transactions()).toBe(5);
  });

  test('answers false without retrying when the email is claimed by another user', async () => {
    dynamo.on(TransactWriteCommand).rejects(transactionCancelled('TransactionConflict', 'ConditionalCheckFailed'));

    expect(await store.create(user)).toBeUndefined();
    expect(transactions()).toBe(1);
  });

  test('throws at once when the user itself exists', async () => {
    dynamo.on(TransactWriteCommand).rejects(transactionCancelled('ConditionalCheckFailed', 'ConditionalCheckFailed'));

    await expect(store.create(user)).rejects.toThrow(TransactionCanceledException);

    expect(transactions()).toBe(1);
  });
});

describe('DynamoEnterpriseUserStore.create, its transaction', () => {
  const newUser = {
    app_id: 'app_1',
    user_id: 'usr_2',
    email: 'alan@example.com',
    first_name: 'Alan',
    last_name: 'Turing',
    created_at: '2026-11-21T10:00:00.000Z',
  };
  const written = () => dynamo.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!)[0];

  test("writes an application's first user as admin, its email claim and the new roster, each only where none is, in one transaction", async () => {
    dynamo.on(QueryCommand).resolves({ Items: [] });
    dynamo.on(TransactWriteCommand).resolves({});

    expect(await store.create(newUser)).toEqual({ ...newUser, role: 'admin' });

    expect(written().map((item) => [item.Put?.TableName, item.Put?.Item?.pk, item.Put?.ConditionExpression])).toEqual([
      ['users', 'user#app_1#usr_2', 'attribute_not_exists(pk)'],
      ['users', 'email#app_1#alan@example.com', 'attribute_not_exists(pk)'],
      ['users', 'roster#app_1', 'attribute_not_exists(pk)'],
    ]);
    expect(written()[0].Put?.Item?.role).toBe('admin');
  });

  test('writes a later user without a role as viewer, counting no admin into the roster', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [{ pk: 'user#app_1#usr_1' }] });
    dynamo.on(TransactWriteCommand).resolves({});

    expect(await store.create(newUser)).toEqual({ ...newUser, role: 'viewer' });

    expect(written()[0].Put?.Item?.role).toBe('viewer');
    expect(written()[2].Update).toMatchObject({ Key: { pk: 'roster#app_1' }, ExpressionAttributeValues: { ':added': 0 } });
  });
});
