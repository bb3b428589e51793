import { beforeEach, describe, expect, test } from '@jest/globals';
import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { conflictRetry, DynamoAffiliateStore, filteredPageReads } from '../../../functions/adapters/dynamo-affiliate-store';
import type { AffiliateRecord } from '../../../functions/domain/affiliates';
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

describe('DynamoAffiliateStore.page by status', () => {
  const item = (id: string, status?: string) => ({
    app_id: 'app_1',
    sk: `affiliate#${id}`,
    affiliate_id: id,
    email: `${id}@x.io`,
    username: id,
    first_name: 'A',
    last_name: 'B',
    created_at: '2026-01-01T00:00:00Z',
    password_hash: 'h',
    ...(status ? { status } : {}),
  });

  test('approved also matches affiliates stored without a status, and the reads go on until one more than the page is found', async () => {
    dynamo
      .on(QueryCommand)
      .resolvesOnce({ Items: [item('aff_1')], LastEvaluatedKey: { app_id: 'app_1', sk: 'affiliate#aff_3' } })
      .resolvesOnce({ Items: [item('aff_4', 'approved'), item('aff_5', 'approved')], LastEvaluatedKey: { app_id: 'app_1', sk: 'affiliate#aff_6' } });

    const page = await store.page('app_1', 2, undefined, 'approved');

    expect(page).toEqual({
      affiliates: [expect.objectContaining({ affiliate_id: 'aff_1' }), expect.objectContaining({ affiliate_id: 'aff_4' })],
      next: 'aff_4',
    });
    expect(dynamo).toHaveReceivedCommandWith(QueryCommand, {
      FilterExpression: 'attribute_not_exists(#status) OR #status = :status',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':app': 'app_1', ':prefix': 'affiliate#', ':status': 'approved' },
    });
    expect(dynamo.commandCalls(QueryCommand)[1]!.args[0].input.ExclusiveStartKey).toEqual({ app_id: 'app_1', sk: 'affiliate#aff_3' });
    expect(JSON.stringify(page)).not.toContain('password_hash');
  });

  test('stops after its read budget with a short page that goes on where the reading stopped', async () => {
    let read = 0;
    dynamo.on(QueryCommand).callsFake(() => ({ Items: [], LastEvaluatedKey: { app_id: 'app_1', sk: `affiliate#aff_${++read}` } }));

    const page = await store.page('app_1', 10, 'aff_0', 'suspended');

    expect(page).toEqual({ affiliates: [], next: `aff_${filteredPageReads}` });
    expect(dynamo).toHaveReceivedCommandTimes(QueryCommand, filteredPageReads);
    expect(dynamo).toHaveReceivedCommandWith(QueryCommand, {
      FilterExpression: '#status = :status',
      ExclusiveStartKey: { app_id: 'app_1', sk: 'affiliate#aff_0' },
    });
  });

  test('without a status, a query DynamoDB cut short (1 MB) still gives a page that goes on where it stopped', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [item('aff_1')], LastEvaluatedKey: { app_id: 'app_1', sk: 'affiliate#aff_1' } });

    const page = await store.page('app_1', 5);

    expect(page).toEqual({ affiliates: [expect.objectContaining({ affiliate_id: 'aff_1' })], next: 'aff_1' });
    expect(dynamo).toHaveReceivedCommandTimes(QueryCommand, 1);
    expect(dynamo.commandCalls(QueryCommand)[0]!.args[0].input).not.toHaveProperty('FilterExpression');
  });
});

describe('DynamoAffiliateStore.register, its transaction', () => {
  test('puts the affiliate as given and its email and username claims in lower case, each only where none is, in one transaction', async () => {
    dynamo.on(TransactWriteCommand).resolves({});

    await store.register({ ...affiliate, email: 'Ada@Example.COM', username: 'Ada' });

    const [transaction] = dynamo.commandCalls(TransactWriteCommand).map((call) => call.args[0].input);
    const puts = transaction.TransactItems!.map((item) => item.Put!);
    expect(puts.map((put) => [put.TableName, put.Item!.app_id, put.Item!.sk, put.ConditionExpression])).toEqual([
      ['affiliates', 'app_1', 'affiliate#aff_1', 'attribute_not_exists(sk)'],
      ['affiliates', 'app_1', 'email#ada@example.com', 'attribute_not_exists(sk)'],
      ['affiliates', 'app_1', 'username#ada', 'attribute_not_exists(sk)'],
    ]);
    expect(puts[0].Item!.email).toBe('Ada@Example.COM');
  });

  test('answers both fields when both claims are taken', async () => {
    dynamo.on(TransactWriteCommand).rejects(transactionCancelled('None', 'ConditionalCheckFailed', 'ConditionalCheckFailed'));

    expect(await store.register(affiliate)).toEqual({ registered: false, taken: ['email', 'username'] });
  });
});

describe('DynamoAffiliateStore.page without a status', () => {
  test("queries the application's affiliates for one more than the page, to know whether another follows", async () => {
    dynamo.on(QueryCommand).resolves({ Items: [] });

    await store.page('app_1', 10);

    const [query] = dynamo.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect([query.TableName, query.ExpressionAttributeValues, query.Limit]).toEqual(['affiliates', { ':app': 'app_1', ':prefix': 'affiliate#' }, 11]);
  });
});
