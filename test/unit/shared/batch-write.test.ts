import { beforeEach, describe, expect, test } from '@jest/globals';
import { DynamoDBClient, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { batchWriteAll, unprocessedRetry } from '../../../functions/adapters/batch-write';
import { noWaiting } from '../../support/retry';

const dynamo = mockClient(DynamoDBDocumentClient);
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const retry = noWaiting(unprocessedRetry);

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];
const put = (n: number): WriteRequest => ({ PutRequest: { Item: { pk: `p${n}` } } });
const sent = () => dynamo.commandCalls(BatchWriteCommand).map((call) => call.args[0].input.RequestItems!.timeline);

beforeEach(() => {
  dynamo.reset();
  retry.waits.length = 0;
});

describe('batchWriteAll', () => {
  test('sends again only the items DynamoDB left unprocessed, backing off in between', async () => {
    dynamo
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { timeline: [put(2), put(3)] } })
      .resolvesOnce({ UnprocessedItems: { timeline: [put(3)] } })
      .resolves({ UnprocessedItems: {} });

    await batchWriteAll(db, 'timeline', [put(1), put(2), put(3)], retry);

    expect(sent()).toEqual([[put(1), put(2), put(3)], [put(2), put(3)], [put(3)]]);
    // random() = 0.5 of 100 and 200 ms
    expect(retry.waits).toEqual([50, 100]);
  });

  test('gives up after 12 attempts, saying how many writes are left', async () => {
    dynamo.on(BatchWriteCommand).resolves({ UnprocessedItems: { timeline: [put(1)] } });

    await expect(batchWriteAll(db, 'timeline', [put(1), put(2)], retry)).rejects.toMatchObject({
      message: '1 writes to timeline still unprocessed after 12 attempts',
    });

    expect(sent().length).toBe(12);
  });

  test('does not retry a request that failed outright: the SDK has retried it already', async () => {
    dynamo.on(BatchWriteCommand).rejects(new ProvisionedThroughputExceededException({ message: 'Rate exceeded', $metadata: {} }));

    await expect(batchWriteAll(db, 'timeline', [put(1)], retry)).rejects.toThrow(ProvisionedThroughputExceededException);

    expect(sent().length).toBe(1);
  });

  test('writes in chunks of 25, each with its own retries', async () => {
    dynamo
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { timeline: [put(24)] } })
      .resolves({});

    await batchWriteAll(
      db,
      'timeline',
      Array.from({ length: 30 }, (_, i) => put(i)),
      retry,
    );

    expect(sent().map((requests) => requests.length)).toEqual([25, 1, 5]);
  });
});
