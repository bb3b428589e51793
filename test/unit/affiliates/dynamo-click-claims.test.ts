import { beforeEach, describe, expect, test } from '@jest/globals';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoClickClaims } from '../../../functions/adapters/dynamo-click-claims';

const dynamo = mockClient(DynamoDBDocumentClient);
const claims = new DynamoClickClaims(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'claims');
const failedCondition = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

const now = new Date('2026-11-21T10:00:00.000Z');
const expiresAt = new Date(now.getTime() + 24 * 60 * 60 * 1000);
const seconds = (at: Date) => at.getTime() / 1000;

beforeEach(() => {
  dynamo.reset();
});

describe('DynamoClickClaims', () => {
  test('claims with one put that takes only a claim that is absent or expired, kept until it expires', async () => {
    dynamo.on(PutCommand).resolves({});

    expect(await claims.claim('k'.repeat(64), now, expiresAt)).toBe(true);

    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: 'claims',
      Item: { claim: 'k'.repeat(64), expires_at: seconds(expiresAt) },
      ConditionExpression: 'attribute_not_exists(claim) OR expires_at <= :now',
      ExpressionAttributeValues: { ':now': seconds(now) },
    });
  });

  test('answers false for a claim another click holds, and lets any other failure through', async () => {
    dynamo.on(PutCommand).rejectsOnce(failedCondition()).rejects(new Error('throttled'));

    expect(await claims.claim('k', now, expiresAt)).toBe(false);
    await expect(claims.claim('k', now, expiresAt)).rejects.toThrow('throttled');
  });

  test('gives a claim back only while it is still the one it made', async () => {
    dynamo.on(DeleteCommand).rejects(failedCondition());

    await claims.release('k', expiresAt);

    expect(dynamo).toHaveReceivedCommandWith(DeleteCommand, {
      Key: { claim: 'k' },
      ConditionExpression: 'expires_at = :mine',
      ExpressionAttributeValues: { ':mine': seconds(expiresAt) },
    });
  });

  test("counts an address's click with one update that adds only below the limit, and answers false at it", async () => {
    dynamo.on(UpdateCommand).resolvesOnce({}).rejects(failedCondition());

    expect(await claims.countWithin('a'.repeat(64), 3, expiresAt)).toBe(true);
    expect(await claims.countWithin('a'.repeat(64), 3, expiresAt)).toBe(false);

    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: 'claims',
      Key: { claim: 'a'.repeat(64) },
      UpdateExpression: 'ADD clicks :one SET expires_at = :expires',
      ConditionExpression: 'attribute_not_exists(clicks) OR clicks < :limit',
      ExpressionAttributeValues: { ':one': 1, ':limit': 3, ':expires': seconds(expiresAt) },
    });
  });

  test('takes a count back only while there is one', async () => {
    dynamo.on(UpdateCommand).rejects(failedCondition());

    await claims.uncount('a');

    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      Key: { claim: 'a' },
      UpdateExpression: 'ADD clicks :less',
      ConditionExpression: 'clicks > :zero',
    });
  });

  test('reads the stored visitor-cookie key, consistently, and stores none', async () => {
    dynamo.on(GetCommand).resolves({ Item: { claim: 'visitor-cookie-key', key: 'stored' } });

    expect(await claims.visitorCookieKey('candidate')).toBe('stored');

    expect(dynamo).toHaveReceivedCommandWith(GetCommand, { Key: { claim: 'visitor-cookie-key' }, ConsistentRead: true });
    expect(dynamo).not.toHaveReceivedCommand(PutCommand);
  });

  test('stores the candidate key when there is none, on the condition that none is there', async () => {
    dynamo.on(GetCommand).resolves({});
    dynamo.on(PutCommand).resolves({});

    expect(await claims.visitorCookieKey('candidate')).toBe('candidate');

    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      Item: { claim: 'visitor-cookie-key', key: 'candidate' },
      ConditionExpression: 'attribute_not_exists(claim)',
    });
  });

  test('takes the key another container stored first', async () => {
    dynamo
      .on(GetCommand)
      .resolvesOnce({})
      .resolves({ Item: { claim: 'visitor-cookie-key', key: 'theirs' } });
    dynamo.on(PutCommand).rejects(failedCondition());

    expect(await claims.visitorCookieKey('candidate')).toBe('theirs');
  });
});
