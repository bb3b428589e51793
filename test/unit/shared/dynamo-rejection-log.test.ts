import { beforeEach, describe, expect, test } from '@jest/globals';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoRejectionLog } from '../../../functions/adapters/dynamo-rejection-log';
import type { Rejection } from '../../../functions/domain/timeline';

const dynamo = mockClient(DynamoDBDocumentClient);
const log = new DynamoRejectionLog(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'rejections');

const rejection: Rejection = {
  app_id: 'app_1',
  profile_id: 'p-a',
  urm_insert_id: 'a-2',
  kind: 'profile',
  shard: 'shardId-000000000000',
  seq: '49659418287166424180426340437516292198866470424436228100',
  reason: 'urm_add needs a number, but name is a string',
  record: '{}',
  record_truncated: false,
  received_at: '2026-11-21T10:00:00.000Z',
  rejected_at: '2026-11-21T10:00:05.000Z',
};
const rowId = `${rejection.received_at}#${rejection.shard}#${rejection.seq}`;

beforeEach(() => {
  dynamo.reset();
  dynamo.on(PutCommand).resolves({});
  dynamo.on(DeleteCommand).resolves({});
});

describe('DynamoRejectionLog', () => {
  test('keeps a rejection under an id of its stream record, so a redelivery writes the same row, for 14 days', async () => {
    await log.put(rejection);

    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: 'rejections',
      Item: { ...rejection, rejection_id: rowId, expires_at: Math.floor(Date.parse(rejection.rejected_at) / 1000) + 14 * 86_400 },
    });
  });

  test('takes a rejection back by the same key', async () => {
    await log.remove([rejection]);

    expect(dynamo).toHaveReceivedCommandWith(DeleteCommand, { TableName: 'rejections', Key: { app_id: 'app_1', rejection_id: rowId } });
  });
});
