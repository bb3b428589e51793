import { beforeEach, describe, expect, test } from '@jest/globals';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoSignInTokenStore } from '../../../functions/adapters/dynamo-sign-in-token-store';
import { hashSecret } from '../../../functions/domain/enterprise';

const dynamo = mockClient(DynamoDBDocumentClient);
const store = new DynamoSignInTokenStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'tokens');

beforeEach(() => {
  dynamo.reset();
  dynamo.on(PutCommand).resolves({});
});

describe('DynamoSignInTokenStore.put', () => {
  test('keeps a new token under its hash, swept by TTL from the second it expires', async () => {
    const token = {
      token_hash: hashSecret('the-token'),
      app_id: 'app_1',
      user_id: 'usr_1',
      created_at: '2026-11-21T10:00:00.000Z',
      expires_at: '2026-11-21T10:05:00.500Z',
    };

    await store.put(token);

    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: 'tokens',
      Item: { ...token, ttl: Math.ceil(Date.parse(token.expires_at) / 1000) },
      ConditionExpression: 'attribute_not_exists(token_hash)',
    });
  });
});
