/** The broadcasts' table adapter (functions/adapters/dynamo-broadcast-store.ts) against a mocked DynamoDB: keys, conditions, the sparse index, what a failed condition means. */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { ConditionalCheckFailedException, DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoBroadcastStore, HEADS_PART } from '../../../functions/adapters/dynamo-broadcast-store';
import { applyAction, newBroadcast, validCreateBroadcast, type DueRecipient } from '../../../functions/domain/broadcasts';

const dynamo = mockClient(DynamoDBDocumentClient);
const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const now = new Date('2026-11-23T10:00:00.000Z');
const store = new DynamoBroadcastStore(client, 'campaigns', () => now);
const failedCondition = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
const draft = newBroadcast(
  'app_1',
  validCreateBroadcast({ broadcast_id: 'spring', name: 'Spring', template_id: 'spring', segment_id: 'vips', purpose: 'marketing', schedule: { kind: 'now' } }),
  'user:u1',
  now,
  'x',
);
const recipient = (profileId: string): DueRecipient => ({ appId: 'app_1', broadcastId: 'spring', profileId, dueAt: now.toISOString(), attempts: 1 });

beforeEach(() => {
  dynamo.reset();
});

describe('the broadcast item', () => {
  test('a draft is created once, in the application partition, outside the due index', async () => {
    dynamo.on(PutCommand).resolvesOnce({}).rejects(failedCondition());

    await expect(store.create(draft)).resolves.toBe(true);
    await expect(store.create(draft)).resolves.toBe(false);

    const input = dynamo.commandCalls(PutCommand)[0].args[0].input;
    expect(input.Item).toMatchObject({ pk: 'app#app_1', sk: 'bc#spring', status: 'draft' });
    expect(input.Item).not.toHaveProperty('due_part');
    expect(input.ConditionExpression).toBe('attribute_not_exists(pk)');
  });

  test('starting it puts it in the index at its start time, on the condition that it is still a draft', async () => {
    dynamo.on(UpdateCommand).resolves({});

    await expect(store.transition(applyAction(draft, 'start', now), 'draft')).resolves.toBe(true);

    const input = dynamo.commandCalls(UpdateCommand)[0].args[0].input;
    expect(input.UpdateExpression).toContain('due_part = :part, due_at = :start_at');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':part': HEADS_PART, ':start_at': now.toISOString(), ':expected': 'draft' });
  });

  test('pausing it takes it out of the index; a status changed meanwhile refuses the write', async () => {
    dynamo.on(UpdateCommand).rejects(failedCondition());
    const running = { ...applyAction(draft, 'start', now), status: 'running' as const };

    await expect(store.transition(applyAction(running, 'pause', now), 'running')).resolves.toBe(false);

    expect(dynamo.commandCalls(UpdateCommand)[0].args[0].input.UpdateExpression).toContain('REMOVE due_part, due_at');
  });

  test('counts are read back from their top-level numbers, reasons included', async () => {
    dynamo.on(GetCommand).resolves({
      Item: { ...draft, schedule: '{"kind":"now"}', c_entered: 10, c_sent: 7, c_sup_rg_status: 2, c_sup_unsubscribed: 1, snapshot_done: true },
    });

    const read = await store.get('app_1', 'spring');

    expect(read?.counts).toEqual({ entered: 10, held_out: 0, sent: 7, suppressed: { rg_status: 2, unsubscribed: 1 }, deferred: 0, failed: 0 });
    expect(dynamo.commandCalls(GetCommand)[0].args[0].input.ConsistentRead).toBe(true);
  });
});

describe('the snapshot', () => {
  test('a page moves the cursor from where it was read and counts its members in the same write', async () => {
    dynamo.on(UpdateCommand).resolves({});

    await store.advanceSnapshot(
      'app_1',
      'spring',
      'c1',
      { cursor: 'c2', done: false },
      { recipients: [{ profileId: 'p1', dueAt: now.toISOString() }], heldOut: ['p2'] },
      now,
    );

    const input = dynamo.commandCalls(UpdateCommand)[0].args[0].input;
    expect(input.ConditionExpression).toBe('snapshot_done = :false AND snapshot_cursor = :from');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':from': 'c1', ':to': 'c2', ':entered': 2, ':held': 1 });
  });

  test('recipients are written only where none is, so a page written again never sets a sent one back to pending', async () => {
    dynamo.on(PutCommand).resolvesOnce({}).rejects(failedCondition());

    await store.putRecipients('app_1', 'spring', { recipients: [{ profileId: 'p1', dueAt: now.toISOString() }], heldOut: ['p2'] });

    const puts = dynamo.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(puts.map((put) => put.ConditionExpression)).toEqual(['attribute_not_exists(pk)', 'attribute_not_exists(pk)']);
    expect(puts[0].Item).toMatchObject({ pk: 'bcr#app_1#spring', sk: 'p1', status: 'pending', due_part: expect.stringMatching(/^bq#app_1#spring#[0-3]$/) });
    expect(puts[1].Item).not.toHaveProperty('due_part');
  });
});

describe('sending', () => {
  test('due recipients are read from each shard of the index up to the time, never the whole broadcast', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [] });

    await store.due('app_1', 'spring', now, 100);

    const queries = dynamo.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(queries).toHaveLength(4);
    expect(queries.every((query) => query.IndexName === 'due' && query.Limit === 25)).toBe(true);
  });

  test('settling ends the recipients and adds their counts in one transaction', async () => {
    dynamo.on(TransactWriteCommand).resolves({});

    await expect(
      store.settle([
        { recipient: recipient('p1'), lease: 'l1', outcome: { status: 'sent' } },
        { recipient: recipient('p2'), lease: 'l2', outcome: { status: 'suppressed', reason: 'unsubscribed' } },
      ]),
    ).resolves.toBe(2);

    const items = dynamo.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems ?? [];
    expect(items).toHaveLength(3);
    expect(items[2].Update).toMatchObject({
      UpdateExpression: 'ADD #c0 :c0, #c1 :c1',
      ExpressionAttributeNames: { '#c0': 'c_sent', '#c1': 'c_sup_unsubscribed' },
    });
  });

  test('a recipient another run took is left out and the rest settled', async () => {
    const canceled = new TransactionCanceledException({
      message: 'canceled',
      $metadata: {},
      CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
    });
    dynamo.on(TransactWriteCommand).rejectsOnce(canceled).resolves({});

    await expect(
      store.settle([
        { recipient: recipient('p1'), lease: 'l1', outcome: { status: 'sent' } },
        { recipient: recipient('p2'), lease: 'l2', outcome: { status: 'sent' } },
      ]),
    ).resolves.toBe(1);

    const second = dynamo.commandCalls(TransactWriteCommand)[1].args[0].input.TransactItems ?? [];
    expect(second).toHaveLength(2);
    expect(second[1].Update?.ExpressionAttributeValues).toEqual({ ':c0': 1 });
  });
});
