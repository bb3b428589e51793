/**
 * DynamoSessionStore, the table of the console's sessions, and
 * DynamoAffiliateSessionStore, the portal's (the same with its index key):
 * the items, TTLs and conditions they send.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoAffiliateSessionStore } from '../../../functions/adapters/dynamo-affiliate-session-store';
import { DynamoSessionStore } from '../../../functions/adapters/dynamo-session-store';
import type { AffiliateSession } from '../../../functions/domain/affiliate-portal';
import type { PortalSession } from '../../../functions/domain/enterprise';

const dynamo = mockClient(DynamoDBDocumentClient);
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const store = new DynamoSessionStore<PortalSession>(db, 'sessions');
const affiliateStore = new DynamoAffiliateSessionStore(db, 'affiliate-sessions');

const epoch = (iso: string) => Date.parse(iso) / 1000;
const session: PortalSession = {
  session_hash: 'hash_1',
  app_id: 'app_1',
  user_id: 'usr_1',
  created_at: '2026-11-21T10:00:00.000Z',
  last_seen: '2026-11-21T10:00:00.000Z',
  expires_at: '2026-11-21T22:00:00.000Z',
  cookie_secure: true,
};
const affiliateSession: AffiliateSession = {
  session_hash: 'hash_2',
  app_id: 'app_1',
  affiliate_id: 'aff_1',
  created_at: '2026-11-21T10:00:00.000Z',
  last_seen: '2026-11-21T21:50:00.000Z',
  cookie_secure: false,
};

beforeEach(() => {
  dynamo.reset();
});

describe('DynamoSessionStore', () => {
  test('puts a new session under its hash, swept by TTL once it has been idle 30 minutes', async () => {
    dynamo.on(PutCommand).resolves({});

    await store.put(session);

    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: 'sessions',
      Item: { ...session, ttl: epoch('2026-11-21T10:30:00.000Z') },
      ConditionExpression: 'attribute_not_exists(session_hash)',
    });
  });

  test('reads a session consistently, without its TTL', async () => {
    dynamo.on(GetCommand).resolves({ Item: { ...session, ttl: 1 } });

    expect(await store.get('hash_1')).toEqual(session);
    expect(dynamo).toHaveReceivedCommandWith(GetCommand, { TableName: 'sessions', Key: { session_hash: 'hash_1' }, ConsistentRead: true });
  });

  test('moves last_seen and the TTL with it forward, never onto a session deleted meanwhile nor backwards', async () => {
    dynamo.on(GetCommand).resolves({ Item: { ...session, ttl: 1 } });
    dynamo.on(UpdateCommand).resolves({});

    await store.touch('hash_1', new Date('2026-11-21T11:00:00.000Z'));

    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: 'sessions',
      Key: { session_hash: 'hash_1' },
      ConditionExpression: 'attribute_exists(session_hash) AND (attribute_not_exists(last_seen) OR last_seen < :seen)',
      UpdateExpression: 'SET last_seen = :seen, #ttl = :ttl',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':seen': '2026-11-21T11:00:00.000Z', ':ttl': epoch('2026-11-21T11:30:00.000Z') },
    });
  });

  test('touching a session that is gone, or whose last_seen has moved on, writes nothing and throws nothing', async () => {
    dynamo.on(GetCommand).resolvesOnce({}).resolves({ Item: session });
    dynamo.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));

    await store.touch('hash_1', new Date('2026-11-21T11:00:00.000Z'));
    expect(dynamo.commandCalls(UpdateCommand)).toEqual([]);

    await expect(store.touch('hash_1', new Date('2026-11-21T11:00:00.000Z'))).resolves.toBe(undefined);
  });

  test('deletes a session and answers it as it was, or nothing when there was none', async () => {
    dynamo
      .on(DeleteCommand)
      .resolvesOnce({ Attributes: { ...session, ttl: 1 } })
      .resolvesOnce({});

    expect(await store.delete('hash_1')).toEqual(session);
    expect(await store.delete('hash_1')).toBe(undefined);
    expect(dynamo).toHaveReceivedCommandWith(DeleteCommand, { TableName: 'sessions', Key: { session_hash: 'hash_1' }, ReturnValues: 'ALL_OLD' });
  });
});

describe('DynamoAffiliateSessionStore', () => {
  test("puts a session with its owner, the by-affiliate index's key, and a TTL at its absolute end 12 hours after sign-in", async () => {
    dynamo.on(PutCommand).resolves({});

    await affiliateStore.put(affiliateSession);

    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: 'affiliate-sessions',
      Item: { ...affiliateSession, owner: 'app_1#aff_1', ttl: epoch('2026-11-21T22:00:00.000Z') },
      ConditionExpression: 'attribute_not_exists(session_hash)',
    });
  });

  test('reads and deletes a session without its owner and TTL', async () => {
    const item = { ...affiliateSession, owner: 'app_1#aff_1', ttl: 1 };
    dynamo.on(GetCommand).resolves({ Item: item });
    dynamo.on(DeleteCommand).resolves({ Attributes: item });

    expect(await affiliateStore.get('hash_2')).toEqual(affiliateSession);
    expect(await affiliateStore.delete('hash_2')).toEqual(affiliateSession);
  });
});
