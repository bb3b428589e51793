import { beforeEach, describe, expect, test } from '@jest/globals';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoAffiliateSessionStore } from '../../../functions/adapters/dynamo-affiliate-session-store';
import { DynamoAffiliateStore } from '../../../functions/adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../../../functions/adapters/dynamo-app-store';
import { DynamoChannelStore } from '../../../functions/adapters/dynamo-channel-store';
import { DynamoFunnelStore } from '../../../functions/adapters/dynamo-funnel-store';
import { DynamoKeyStore } from '../../../functions/adapters/dynamo-key-store';
import { DynamoLinkStore } from '../../../functions/adapters/dynamo-link-store';
import { DynamoPlanStore } from '../../../functions/adapters/dynamo-plan-store';

const dynamo = mockClient(DynamoDBDocumentClient);
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));

beforeEach(() => {
  dynamo.reset();
  dynamo.on(BatchWriteCommand).resolves({});
});

/**
 * Answers the listing's reads with these pages, each but the last with a LastEvaluatedKey;
 * answers the ExclusiveStartKey of each read as it was sent.
 */
function pagesOf(command: typeof QueryCommand | typeof ScanCommand, pages: Record<string, unknown>[][]): unknown[] {
  const starts: unknown[] = [];
  dynamo.on(command as typeof QueryCommand).callsFake((input: { ExclusiveStartKey?: unknown }) => {
    const read = starts.push(structuredClone(input.ExclusiveStartKey)) - 1;
    return { Items: pages[read], ...(read + 1 < pages.length ? { LastEvaluatedKey: { after: `page ${read}` } } : {}) };
  });
  return starts;
}

const created = (n: number) => `2026-11-2${n}T10:00:00.000Z`;

const listings = [
  {
    listing: 'DynamoAppStore.list',
    command: ScanCommand,
    item: (n: number) => ({ app_id: `app_${n}`, created_at: created(n) }),
    list: async () => (await new DynamoAppStore(db, 'apps').list()).map((app) => app.app_id),
    expected: ['app_1', 'app_2', 'app_3'],
  },
  {
    listing: 'DynamoKeyStore.listByApp',
    command: QueryCommand,
    item: (n: number) => ({ key_hash: `hash_${n}`, key_id: `key_${n}`, app_id: 'app_1' }),
    list: async () => (await new DynamoKeyStore(db, 'keys').listByApp('app_1')).map((key) => key.key_id),
    expected: ['key_1', 'key_2', 'key_3'],
  },
  {
    listing: 'DynamoChannelStore.listByApp',
    command: QueryCommand,
    item: (n: number) => ({ app_id: 'app_1', channel_id: `ch_${n}`, created_at: created(n) }),
    list: async () => (await new DynamoChannelStore(db, 'channels').listByApp('app_1')).map((channel) => channel.channel_id),
    expected: ['ch_1', 'ch_2', 'ch_3'],
  },
  {
    listing: 'DynamoPlanStore.list',
    command: QueryCommand,
    item: (n: number) => ({ app_id: 'app_1', sk: `plan#plan_${n}`, plan_id: `plan_${n}`, created_at: created(n) }),
    list: async () => (await new DynamoPlanStore(db, 'affiliates').list('app_1')).map((plan) => plan.plan_id),
    expected: ['plan_1', 'plan_2', 'plan_3'],
  },
  {
    listing: 'DynamoLinkStore.listByAffiliate',
    command: QueryCommand,
    item: (n: number) => ({ link_id: `link_${n}`, app_id: 'app_1', affiliate_id: 'aff_1', owner: 'app_1#aff_1' }),
    list: async () => (await new DynamoLinkStore(db, 'links').listByAffiliate('app_1', 'aff_1')).map((link) => link.link_id),
    expected: ['link_1', 'link_2', 'link_3'],
  },
  {
    listing: 'DynamoAffiliateStore.list',
    command: QueryCommand,
    item: (n: number) => ({ app_id: 'app_1', sk: `affiliate#aff_${n}`, affiliate_id: `aff_${n}`, created_at: created(n) }),
    list: async () => (await new DynamoAffiliateStore(db, 'affiliates').list('app_1')).map((affiliate) => affiliate.affiliate_id),
    expected: ['aff_1', 'aff_2', 'aff_3'],
  },
  {
    listing: 'DynamoFunnelStore.days',
    command: QueryCommand,
    item: (n: number) => ({ pk: 'a#app_1#aff_1', sk: `d#2026-11-2${n}#link_1`, day: `2026-11-2${n}` }),
    list: async () => (await new DynamoFunnelStore(db, 'funnel').days('app_1', 'aff_1', '2026-11-21', '2026-11-23')).map((row) => row.day),
    expected: ['2026-11-21', '2026-11-22', '2026-11-23'],
  },
  {
    listing: 'DynamoAffiliateSessionStore.deleteAllOf (the sessions it deletes)',
    command: QueryCommand,
    item: (n: number) => ({ session_hash: `hash_${n}` }),
    list: async () => {
      await new DynamoAffiliateSessionStore(db, 'sessions').deleteAllOf('app_1', 'aff_1');
      return dynamo
        .commandCalls(BatchWriteCommand)
        .flatMap((call) => call.args[0].input.RequestItems!.sessions!.map((request) => request.DeleteRequest!.Key!.session_hash));
    },
    expected: ['hash_1', 'hash_2', 'hash_3'],
  },
];

describe.each(listings)('$listing', ({ command, item, list, expected }) => {
  test('reads every page, one read per page, each from where the last one stopped', async () => {
    const starts = pagesOf(command, [[item(1), item(2)], [item(3)]]);

    const listed = await list();

    expect(listed).toEqual(expected);
    expect(starts).toEqual([undefined, { after: 'page 0' }]);
  });

  test('reads once when the first page is the last', async () => {
    const starts = pagesOf(command, [[item(1)]]);

    expect(await list()).toEqual(expected.slice(0, 1));
    expect(starts).toEqual([undefined]);
  });
});
