import { beforeEach, describe, expect, test } from '@jest/globals';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoChannelStore } from '../../../functions/adapters/dynamo-channel-store';

const dynamo = mockClient(DynamoDBDocumentClient);
const store = new DynamoChannelStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'channels');
const at = new Date('2026-11-23T10:00:00.000Z');

beforeEach(() => {
  dynamo.reset();
});

describe('DynamoChannelStore.setFromDomain', () => {
  test('sets the domain only while the channel still has the address it was checked against', async () => {
    dynamo.on(UpdateCommand).resolves({ Attributes: { channel_id: 'ch_news', from_domain: 'example.com' } });

    const updated = await store.setFromDomain('app_1', 'ch_news', 'news@example.com', 'example.com', at);

    expect(updated).toEqual({ channel_id: 'ch_news', from_domain: 'example.com' });
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: 'channels',
      Key: { app_id: 'app_1', channel_id: 'ch_news' },
      ConditionExpression: 'from_email = :email',
      UpdateExpression: 'SET from_domain = :domain, updated_at = :at',
      ExpressionAttributeValues: { ':email': 'news@example.com', ':domain': 'example.com', ':at': at.toISOString() },
    });
  });

  test('removes the domain when given none', async () => {
    dynamo.on(UpdateCommand).resolves({ Attributes: { channel_id: 'ch_news' } });

    await store.setFromDomain('app_1', 'ch_news', 'news@example.com', undefined, at);

    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      UpdateExpression: 'SET updated_at = :at REMOVE from_domain',
      ExpressionAttributeValues: { ':email': 'news@example.com', ':at': at.toISOString() },
    });
  });

  test('answers undefined for a missing channel or one whose address changed', async () => {
    dynamo.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));

    expect(await store.setFromDomain('app_1', 'ch_gone', 'news@example.com', 'example.com', at)).toBe(undefined);
  });
});
