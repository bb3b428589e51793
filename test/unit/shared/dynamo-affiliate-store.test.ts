import { beforeEach, describe, expect, test } from '@jest/globals';
import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { conflictRetry, DynamoAffiliateStore } from '../../../functions/shared/adapters/dynamo-affiliate-store';
import type { AffiliateRecord } from '../../../functions/shared/domain/affiliates';
import { noWaiting, transactionCancelled } from '../../support/retry';

const dynamo = mockClient(DynamoDBDocumentClient);
const retry = noWaiting(conflictRetry);
const store = new DynamoAffiliateStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'affiliates', retry);

const affiliate: AffiliateRecord = {
  app_id: 'app_1',
  affiliate_id: 'aff_1',
  email: 'ada@example.com',
  username: 'ada',
  first_name: 'Ada',
  last_name: 'Lovelace',
  password_hash: 'scrypt$…',
  created_at: '2026-11-21T10:00:00.000Z',
};
const transactions = () => dynamo.commandCalls(TransactWriteCommand).length;

beforeEach(() => {
  dynamo.reset();
  retry.waits.length = 0;
});

describe('DynamoAffiliateStore.register', () => {
  test('retries a transaction that collided with another in flight, backing off in between', async () => {
    dynamo
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled('None', 'TransactionConflict', 'None'))
      .rejectsOnce(transactionCancelled('TransactionConflict', 'None', 'None'))
      .resolves({});

    expect(await store.register(affiliate)).toEqual({ registered: true });
    expect(transactions()).toBe(3);
    // random() = 0.5 of 40 and 80 ms
    expect(retry.waits).toEqual([20, 40]);
  });

  test('gives up after 6 attempts and throws the cancellation', async () => {
    dynamo.on(TransactWriteCommand).rejects(transactionCancelled('None', 'TransactionConflict', 'None'));

    await expect(store.register(affiliate)).rejects.toThrow(TransactionCanceledException);

    expect(transactions()).toBe(6);
  });

  test('answers the taken fields without retrying, even beside a conflict', async () => {
    dynamo.on(TransactWriteCommand).rejects(transactionCancelled('TransactionConflict', 'None', 'ConditionalCheckFailed'));

    expect(await store.register(affiliate)).toEqual({ registered: false, taken: ['username'] });
    expect(transactions()).toBe(1);
  });

  test('does not retry any other failure', async () => {
    dynamo.on(TransactWriteCommand).rejects(new Error('socket hang up'));

    await expect(store.register(affiliate)).rejects.toThrow(/socket hang up/);

    expect(transactions()).toBe(1);
  });
});
