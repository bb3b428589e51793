/**
 * DynamoOneTimeTokenStore, the table of the console's sign-in tokens and of
 * the portal's reset tokens: the items and conditions it sends, and how it
 * reads a refused use.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { ConditionalCheckFailedException, DynamoDBClient, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoOneTimeTokenStore } from '../../../functions/adapters/dynamo-one-time-token-store';
import type { StoredSignInToken } from '../../../functions/domain/enterprise';
import { hashSecret } from '../../../functions/domain/secrets-random';

const dynamo = mockClient(DynamoDBDocumentClient);
const store = new DynamoOneTimeTokenStore<StoredSignInToken>(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'tokens');

const token: StoredSignInToken = {
  token_hash: hashSecret('the-token'),
  app_id: 'app_1',
  user_id: 'usr_1',
  created_at: '2026-11-21T10:00:00.000Z',
  expires_at: '2026-11-21T10:05:00.500Z',
};
const now = new Date('2026-11-21T10:01:00.000Z');
const ttl = Math.ceil(Date.parse(token.expires_at) / 1000);
/** A refused conditional write, with the item as it was (DynamoDB's wire form) when there was one. */
const refused = (item?: Record<string, AttributeValue>) =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {}, ...(item ? { Item: item } : {}) });

beforeEach(() => {
  dynamo.reset();
});

describe('DynamoOneTimeTokenStore.put', () => {
  test('keeps a new token under its hash, swept by TTL from the second it expires', async () => {
    dynamo.on(PutCommand).resolves({});

    await store.put(token);

    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: 'tokens',
      Item: { ...token, ttl },
      ConditionExpression: 'attribute_not_exists(token_hash)',
    });
  });
});

describe('DynamoOneTimeTokenStore.consume', () => {
  test('marks the token used in one conditional update and answers it, without its TTL', async () => {
    dynamo.on(UpdateCommand).resolves({ Attributes: { ...token, ttl, used_at: now.toISOString() } });

    const used = await store.consume(token.token_hash, now);

    expect(used).toEqual({ outcome: 'consumed', token: { ...token, used_at: now.toISOString() } });
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: 'tokens',
      Key: { token_hash: token.token_hash },
      ConditionExpression: 'attribute_exists(token_hash) AND attribute_not_exists(used_at) AND expires_at > :now',
      UpdateExpression: 'SET used_at = :now',
      ExpressionAttributeValues: { ':now': now.toISOString() },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
  });

  test('answers why a refused update was refused, from the item as it was', async () => {
    const outcomeWhen = async (error: Error) => {
      dynamo.reset();
      dynamo.on(UpdateCommand).rejects(error);
      return (await store.consume(token.token_hash, now)).outcome;
    };

    expect(await outcomeWhen(refused({ token_hash: { S: token.token_hash }, used_at: { S: '2026-11-21T10:00:30.000Z' } }))).toBe('used');
    expect(await outcomeWhen(refused({ token_hash: { S: token.token_hash }, expires_at: { S: '2026-11-21T10:00:59.000Z' } }))).toBe('expired');
    expect(await outcomeWhen(refused())).toBe('unknown');
  });

  test('lets any other failure through', async () => {
    dynamo.on(UpdateCommand).rejects(new Error('throttled'));

    await expect(store.consume(token.token_hash, now)).rejects.toThrow('throttled');
  });
});

describe('DynamoOneTimeTokenStore.peek', () => {
  test('reads the token consistently and answers what using it now would, without using it', async () => {
    dynamo.on(GetCommand).resolves({ Item: { ...token, ttl } });

    expect(await store.peek(token.token_hash, now)).toEqual({ outcome: 'consumed', token });
    expect(await store.peek(token.token_hash, new Date(token.expires_at))).toEqual({ outcome: 'expired' });
    expect(dynamo).toHaveReceivedCommandWith(GetCommand, { TableName: 'tokens', Key: { token_hash: token.token_hash }, ConsistentRead: true });
    expect(dynamo.commandCalls(UpdateCommand)).toEqual([]);
  });

  test('answers used for a used token and unknown for none', async () => {
    dynamo
      .on(GetCommand)
      .resolvesOnce({ Item: { ...token, ttl, used_at: '2026-11-21T10:00:30.000Z' } })
      .resolvesOnce({});

    expect(await store.peek(token.token_hash, now)).toEqual({ outcome: 'used' });
    expect(await store.peek(token.token_hash, now)).toEqual({ outcome: 'unknown' });
  });
});
