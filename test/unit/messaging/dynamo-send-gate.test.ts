/** The send gate's table adapters (functions/adapters/dynamo-send-gate.ts) against a mocked DynamoDB: the calls, their conditions, what a failed condition means. */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDeferredOutbox, DynamoSentCounts } from '../../../functions/adapters/dynamo-send-gate';
import type { GatedRequest } from '../../../functions/messaging/gated';

const dynamo = mockClient(DynamoDBDocumentClient);
const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const now = () => new Date('2026-11-23T10:00:00.000Z');
const counts = new DynamoSentCounts(client, 'send-gate', now);
const outbox = new DynamoDeferredOutbox(client, 'send-gate', now);
const failedCondition = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
const monday = { day: '2026-11-23', week: '2026-W48', minutes: 600 };
const key = { pk: 'c#app_1#p-1', sk: 'email' };

beforeEach(() => {
  dynamo.reset();
});

describe('the caps counts', () => {
  test('a send on the stored day is one conditional update under both caps', async () => {
    dynamo.on(UpdateCommand).resolves({});

    await expect(counts.claim('app_1', 'p-1', 'email', monday, { daily: 2, weekly: 5 })).resolves.toBe(true);

    const calls = dynamo.commandCalls(UpdateCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toMatchObject({
      Key: key,
      ConditionExpression: '#day = :day AND #week = :week AND day_count < :dcap AND week_count < :wcap',
      ExpressionAttributeValues: expect.objectContaining({ ':day': '2026-11-23', ':week': '2026-W48', ':dcap': 2, ':wcap': 5 }),
    });
  });

  test("the day's cap reached: nothing more is written, the claim is refused", async () => {
    dynamo.on(UpdateCommand).rejects(failedCondition());
    dynamo.on(GetCommand).resolves({ Item: { ...key, day: '2026-11-23', day_count: 2, week: '2026-W48', week_count: 2 } });

    await expect(counts.claim('app_1', 'p-1', 'email', monday, { daily: 2 })).resolves.toBe(false);
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(1);
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(0);
  });

  test("a new day of the same week starts the day at one, on the condition that the item is still yesterday's", async () => {
    dynamo.on(UpdateCommand).rejectsOnce(failedCondition()).resolves({});
    dynamo.on(GetCommand).resolves({ Item: { ...key, day: '2026-11-22', day_count: 1, week: '2026-W48', week_count: 1 } });

    await expect(counts.claim('app_1', 'p-1', 'email', monday, { daily: 1, weekly: 3 })).resolves.toBe(true);

    const second = dynamo.commandCalls(UpdateCommand)[1].args[0].input;
    expect(second).toMatchObject({
      UpdateExpression: 'SET #day = :day, day_count = :one, expires_at = :expires ADD week_count :one',
      ConditionExpression: '#week = :week AND #day = :oldDay AND week_count < :wcap',
      ExpressionAttributeValues: expect.objectContaining({ ':day': '2026-11-23', ':oldDay': '2026-11-22', ':wcap': 3 }),
    });
  });

  test("the week's cap reached on a new day is refused without a write", async () => {
    dynamo.on(UpdateCommand).rejects(failedCondition());
    dynamo.on(GetCommand).resolves({ Item: { ...key, day: '2026-11-22', day_count: 1, week: '2026-W48', week_count: 3 } });

    await expect(counts.claim('app_1', 'p-1', 'email', monday, { weekly: 3 })).resolves.toBe(false);
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(1);
  });

  test('a new week, or no item yet, is a put on the condition that nobody started it meanwhile', async () => {
    dynamo.on(UpdateCommand).rejects(failedCondition());
    dynamo
      .on(GetCommand)
      .resolvesOnce({ Item: { ...key, day: '2026-11-20', day_count: 4, week: '2026-W47', week_count: 9 } })
      .resolves({});
    dynamo.on(PutCommand).resolves({});

    await expect(counts.claim('app_1', 'p-1', 'email', monday, { daily: 1 })).resolves.toBe(true);
    await expect(counts.claim('app_1', 'p-1', 'email', monday, { daily: 1 })).resolves.toBe(true);

    const [newWeek, first] = dynamo.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(newWeek).toMatchObject({
      Item: { ...key, day: '2026-11-23', day_count: 1, week: '2026-W48', week_count: 1 },
      ConditionExpression: '#week = :oldWeek',
    });
    expect(first).toMatchObject({ ConditionExpression: 'attribute_not_exists(pk)' });
  });

  test("a day's or week's count of another day reads as zero", async () => {
    dynamo.on(GetCommand).resolves({ Item: { ...key, day: '2026-11-22', day_count: 4, week: '2026-W48', week_count: 6 } });

    await expect(counts.read('app_1', 'p-1', 'email', monday)).resolves.toEqual({ day: 0, week: 6 });
    expect(dynamo.commandCalls(GetCommand)[0].args[0].input.ConsistentRead).toBe(true);
  });
});

describe('the deferred outbox', () => {
  const request: GatedRequest = {
    appId: 'app_1',
    profileId: 'p-1',
    purpose: 'marketing',
    messageId: 'm-1',
    message: { channel: 'email', email: { channel_id: 'ch_news', subject: 'Spins', text_body: 'Ten' } },
  };

  test('stores a message once: a retry whose put finds it stored is no error', async () => {
    dynamo.on(PutCommand).resolvesOnce({}).rejects(failedCondition());

    await outbox.defer(request, new Date('2026-11-23T12:00:00.000Z'));
    await outbox.defer(request, new Date('2026-11-23T12:00:00.000Z'));

    const [put] = dynamo.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(put).toMatchObject({
      Item: { pk: 'app#app_1', sk: 'msg#m-1', due_at: '2026-11-23T12:00:00.000Z', request: JSON.stringify(request) },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  });

  test('a run takes a message on the due time it read, and deletes it only while it holds the lease', async () => {
    dynamo.on(UpdateCommand).resolvesOnce({}).rejects(failedCondition());
    dynamo.on(DeleteCommand).resolves({});
    const due = { appId: 'app_1', messageId: 'm-1', dueAt: '2026-11-23T12:00:00.000Z', request };

    await expect(outbox.take(due, 'lease-1', new Date('2026-11-23T12:05:00.000Z'))).resolves.toBe(true);
    await expect(outbox.take(due, 'lease-2', new Date('2026-11-23T12:05:00.000Z'))).resolves.toBe(false);
    await outbox.done(due, 'lease-1');

    expect(dynamo.commandCalls(UpdateCommand)[0].args[0].input).toMatchObject({ ConditionExpression: 'due_at = :read' });
    expect(dynamo.commandCalls(DeleteCommand)[0].args[0].input).toMatchObject({
      ConditionExpression: 'lease = :lease',
      ExpressionAttributeValues: { ':lease': 'lease-1' },
    });
  });
});
