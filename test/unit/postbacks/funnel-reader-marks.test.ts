import { beforeEach, describe, expect, test } from '@jest/globals';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoFunnelStore } from '../../../functions/adapters/dynamo-funnel-store';

const dynamo = mockClient(DynamoDBDocumentClient);
beforeEach(() => {
  dynamo.reset();
});

describe('the funnel reader and the postback outbox', () => {
  test("registration and FTD rows are read without the outbox's marks", async () => {
    const stored = {
      pk: 'a#app-1#aff-1',
      sk: 'f#2026-11-23#p-1',
      app_id: 'app-1',
      affiliate_id: 'aff-1',
      profile_id: 'p-1',
      link_id: 'link-1',
      sub_id: 'spring',
      day: '2026-11-23',
      amount: '50',
      insert_id: 'ev-1',
      urm_date_time: '2026-11-23T10:00:00Z',
      postback_queue: 'due',
      postback_due: '2026-11-23T10:00:01Z',
      postback_attempts: 2,
    };
    dynamo.on(QueryCommand).resolves({ Items: [stored] });

    const ftds = await new DynamoFunnelStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'funnel').ftds(
      'app-1',
      'aff-1',
      '2026-11-23',
      '2026-11-23',
    );

    expect(ftds).toEqual([
      {
        app_id: 'app-1',
        affiliate_id: 'aff-1',
        profile_id: 'p-1',
        link_id: 'link-1',
        sub_id: 'spring',
        day: '2026-11-23',
        amount: '50',
        insert_id: 'ev-1',
        urm_date_time: '2026-11-23T10:00:00Z',
      },
    ]);
  });
});
