/** The writes that make a sender one application's (functions/adapters/dynamo-sender-store.ts); test/integration/trust-senders.test.ts races them on DynamoDB Local. */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type GetCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoSenderStore } from '../../../functions/adapters/dynamo-sender-store';
import type { SenderAssignment } from '../../../functions/domain/channels';
import { transactionCancelled } from '../../support/retry';

const dynamo = mockClient(DynamoDBDocumentClient);
const store = new DynamoSenderStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'senders');

const at = '2026-11-23T10:00:00.000Z';
const address = (app_id: string): SenderAssignment => ({ app_id, sender: 'news@casino.example', kind: 'address', assigned_at: at });
const domain = (app_id: string): SenderAssignment => ({ app_id, sender: 'casino.example', kind: 'domain', assigned_at: at });
const item = (assignment: SenderAssignment) => ({ domain: 'casino.example', ...assignment });
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

/** The items GetItem finds, by sort key. */
function stored(items: Record<string, Record<string, unknown>>) {
  dynamo.on(GetCommand).callsFake((input: GetCommandInput) => ({ Item: items[input.Key!.sender as string] }));
}

beforeEach(() => {
  dynamo.reset();
});

describe('claiming an address', () => {
  test("puts its item only if there is none, and counts it on the domain's item only while no other application holds the domain", async () => {
    stored({});
    dynamo.on(TransactWriteCommand).resolves({});

    expect(await store.claim(address('app_1'))).toEqual({ outcome: 'assigned', assignment: address('app_1') });

    expect(dynamo).toHaveReceivedCommandWith(TransactWriteCommand, {
      TransactItems: [
        {
          Put: {
            TableName: 'senders',
            Item: item(address('app_1')),
            ConditionExpression: 'attribute_not_exists(#sender)',
            ExpressionAttributeNames: { '#sender': 'sender' },
          },
        },
        {
          Update: {
            TableName: 'senders',
            Key: { domain: 'casino.example', sender: 'casino.example' },
            UpdateExpression: 'ADD #writes :one',
            ConditionExpression: 'attribute_not_exists(#app) OR #app = :app',
            ExpressionAttributeNames: { '#writes': 'writes', '#app': 'app_id' },
            ExpressionAttributeValues: { ':one': 1, ':app': 'app_1' },
          },
        },
      ],
    });
  });

  test('that lost a race reads again and answers who won, writing nothing more', async () => {
    dynamo
      .on(GetCommand)
      .resolvesOnce({})
      .resolvesOnce({})
      .callsFake((input: GetCommandInput) => ({ Item: input.Key!.sender === 'news@casino.example' ? item(address('app_2')) : undefined }));
    dynamo.on(TransactWriteCommand).rejectsOnce(transactionCancelled('ConditionalCheckFailed', 'None'));

    expect(await store.claim(address('app_1'))).toEqual({ outcome: 'taken', by: address('app_2') });
    expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  test("already the application's, answers it unchanged without writing", async () => {
    stored({ 'news@casino.example': item(address('app_1')) });

    expect(await store.claim(address('app_1'))).toEqual({ outcome: 'unchanged', assignment: address('app_1') });
    expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  test('gives up with a conflict when it loses every race', async () => {
    stored({});
    dynamo.on(TransactWriteCommand).rejects(transactionCancelled('None', 'TransactionConflict'));

    await expect(store.claim(address('app_1'))).rejects.toThrow('news@casino.example changed while it was being assigned: try again');
    expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(5);
  });
});

describe('claiming a domain', () => {
  test("reads the domain's partition consistently, then writes only if no claim was made at the domain since", async () => {
    dynamo.on(QueryCommand).resolves({ Items: [{ domain: 'casino.example', sender: 'casino.example', writes: 3 }, item(address('app_1'))] });
    dynamo.on(UpdateCommand).resolves({});

    expect(await store.claim(domain('app_1'))).toEqual({ outcome: 'assigned', assignment: domain('app_1') });

    expect(dynamo).toHaveReceivedCommandWith(QueryCommand, {
      TableName: 'senders',
      ConsistentRead: true,
      ExpressionAttributeValues: { ':domain': 'casino.example' },
    });
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      Key: { domain: 'casino.example', sender: 'casino.example' },
      UpdateExpression: 'SET #app = :app, #kind = :kind, #at = :at ADD #writes :one',
      ConditionExpression: 'attribute_not_exists(#app) AND #writes = :seen',
      ExpressionAttributeValues: { ':app': 'app_1', ':kind': 'domain', ':at': at, ':one': 1, ':seen': 3 },
    });
  });

  test("with another application's address at it, is taken by that address, and writes nothing", async () => {
    dynamo.on(QueryCommand).resolves({ Items: [{ domain: 'casino.example', sender: 'casino.example', writes: 1 }, item(address('app_2'))] });

    expect(await store.claim(domain('app_1'))).toEqual({ outcome: 'taken', by: address('app_2') });
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  test('never claimed at before, is written only if its item still does not exist', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [] });
    dynamo.on(UpdateCommand).resolves({});

    await store.claim(domain('app_1'));

    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, { ConditionExpression: 'attribute_not_exists(#sender)' });
  });
});

describe('who holds an address', () => {
  test('reads the address and its domain consistently, in lower case', async () => {
    stored({ 'casino.example': item(domain('app_1')) });

    expect(await store.holders('News@Casino.example')).toEqual({ address: undefined, domain: 'app_1' });

    for (const sender of ['news@casino.example', 'casino.example']) {
      expect(dynamo).toHaveReceivedCommandWith(GetCommand, { TableName: 'senders', Key: { domain: 'casino.example', sender }, ConsistentRead: true });
    }
  });
});

describe('releasing', () => {
  test("deletes an address's item, and removes a domain's claim but keeps its count, each only for its holder", async () => {
    dynamo.on(DeleteCommand).resolves({});
    dynamo.on(UpdateCommand).rejects(conditionFailed());

    expect(await store.release('app_1', 'news@casino.example')).toBe(true);
    expect(await store.release('app_1', 'casino.example')).toBe(false);

    expect(dynamo).toHaveReceivedCommandWith(DeleteCommand, { ConditionExpression: '#app = :app', ExpressionAttributeValues: { ':app': 'app_1' } });
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, { UpdateExpression: 'REMOVE #app, #kind, #at', ConditionExpression: '#app = :app' });
  });
});
