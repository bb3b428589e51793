import { beforeEach, describe, expect, test } from '@jest/globals';
import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
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
