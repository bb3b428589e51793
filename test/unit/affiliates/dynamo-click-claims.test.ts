import { beforeEach, describe, expect, test } from '@jest/globals';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
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
});
