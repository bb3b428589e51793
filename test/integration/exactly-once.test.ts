import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import type { Context, KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ingestStream, tables } from '../../functions/manifest/resources';
import { deliveryCounts, formatCounts } from '../support/delivery-counts';
import { funnelOf, totalsOf } from '../support/funnel';
import { context } from '../support/lambda';
import { kinesisEvent, sequenceNumbers } from '../support/kinesis-event';
import { testStack, type TestStack } from '../support/local-stack';
import { readProfile, readTimeline } from '../support/profiles';

type Consumer = (event: KinesisStreamEvent, context: Context) => Promise<KinesisStreamBatchResponse>;

let stack: TestStack;
let applyProfiles: Consumer;
let recordEvents: Consumer;
let countFunnel: Consumer;
beforeAll(async () => {
  stack = await testStack();
  // The consumers as Lambda runs them, against the stack's DynamoDB Local.
  Object.assign(process.env, {
    AWS_REGION: stack.endpoints.region,
    AWS_ACCESS_KEY_ID: stack.endpoints.access_key_id,
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: stack.endpoints.dynamodb_endpoint,
    // Where the profile consumer puts the continuation of a long delete or merge.
    AWS_ENDPOINT_URL_KINESIS: stack.endpoints.kinesis_endpoint,
    [ingestStream.envVar]: ingestStream.localName,
    ...Object.fromEntries(Object.values(tables).map((t) => [t.envVar, t.localName])),
  });
  applyProfiles = (await import('../../functions/consumers/apply-profiles/handler')).handler as unknown as Consumer;
  recordEvents = (await import('../../functions/consumers/record-events/handler')).handler as unknown as Consumer;
  countFunnel = (await import('../../functions/consumers/count-funnel/handler')).handler as unknown as Consumer;
});

describe('delivering the same Kinesis batch twice', () => {
  test('leaves profile state and timeline as delivering it once did', async () => {
    const profileId = `twice-${randomUUID()}`;
    const record = (fields: Record<string, unknown>) => ({
      app_id: stack.dev.app_id,
      profile_id: profileId,
      urm_date_time: '2026-11-21T10:00:00Z',
      urm_insert_id: randomUUID(),
      ...fields,
    });
    const seq = sequenceNumbers(6);
    const shardId = `shardId-test-${randomUUID()}`;
    const profiles = kinesisEvent([
      { kind: 'profile', record: record({ urm_add: { balance: 10.5, n: 1 } }), sequenceNumber: seq[0], shardId },
      { kind: 'profile', record: record({ urm_append: { games: ['slots'] }, urm_add: { n: 1 } }), sequenceNumber: seq[1], shardId },
      { kind: 'profile', record: record({ urm_add: { balance: -0.5, n: 1 }, urm_set: { tier: 'gold' } }), sequenceNumber: seq[2], shardId },
    ]);
    const events = kinesisEvent([
      { kind: 'event', record: record({ event: 'deposit', amount: 10.5 }), sequenceNumber: seq[3], shardId },
      { kind: 'event', record: record({ event: 'bet', amount: 1 }), sequenceNumber: seq[4], shardId },
    ]);

    expect(await applyProfiles(profiles, context())).toEqual({ batchItemFailures: [] });
    expect(await recordEvents(events, context())).toEqual({ batchItemFailures: [] });
    const once = { profile: (await readProfile(stack, profileId)).body, timeline: await readTimeline(stack, profileId) };
    expect(await applyProfiles(profiles, context())).toEqual({ batchItemFailures: [] });
    expect(await recordEvents(events, context())).toEqual({ batchItemFailures: [] });
    const twice = { profile: (await readProfile(stack, profileId)).body, timeline: await readTimeline(stack, profileId) };

    // Every profile record adds 1 to n and every event is one timeline entry: exact counters of what was applied.
    const counts = deliveryCounts(
      new Map([[profileId, { updates: profiles.Records.length, events: events.Records.length }]]),
      new Map([[profileId, { updates: twice.profile.attributes.n, events: twice.timeline.length }]]),
    );
    console.log(formatCounts('a batch delivered twice', counts));
    expect(counts.duplicated).toBe(0);
    expect(counts.lost).toBe(0);
    expect(once.profile.attributes).toEqual({ balance: 10, games: ['slots'], tier: 'gold', n: 3 });
    expect(once.timeline.length).toBe(2);
    expect(twice).toEqual(once);
  });
});

describe('delivering the same funnel batch twice', () => {
  test('leaves every figure, trace row and ledger as delivering it once did', async () => {
    const run = randomUUID().slice(0, 8);
    const affiliateId = `aff-twice-${run}`;
    const shardId = `shardId-test-${randomUUID()}`;
    const record = (profileId: string, fields: Record<string, unknown>) => ({
      app_id: stack.dev.app_id,
      profile_id: profileId,
      urm_date_time: '2026-11-21T10:00:00Z',
      urm_insert_id: randomUUID(),
      ...fields,
    });
    const players = [`p1-${run}`, `p2-${run}`];
    const records = players.flatMap((player) => [
      record(player, { event: 'Deposit', amount: 10.1, currency: 'EUR' }),
      record(player, { event: 'urm_affiliate_attributed', urm_aff_id: affiliateId, urm_aff_link_id: 'link-1' }),
      record(player, { event: 'Bet', amount: 0.1, currency: 'EUR' }),
      record(player, { event: 'Win', amount: 0.2, currency: 'USD', exchange_rate: 0.9 }),
    ]);
    const click = { ...record(`urm-visitor-${run}`, {}), affiliate_id: affiliateId, link_id: 'link-1' };
    const seqs = sequenceNumbers(records.length + 1);
    const batch = kinesisEvent([
      ...records.map((rest, i) => ({ kind: 'event' as const, record: rest, sequenceNumber: seqs[i], shardId })),
      { kind: 'click', record: click, sequenceNumber: seqs[records.length], shardId },
    ]);
    const { reader, document } = funnelOf(stack.endpoints);
    const everything = async () => {
      const read = (pk: string) =>
        document.send(new QueryCommand({ TableName: tables.funnel.localName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }));
      const rows = await Promise.all([`a#${stack.dev.app_id}#${affiliateId}`, ...players.map((p) => `p#${stack.dev.app_id}#${p}`)].map(read));
      // The postback outbox's marks are the postback sender's to change (it runs meanwhile, every second): not compared.
      return rows.flatMap((out) => out.Items ?? []).map(({ postback_queue: _q, postback_due: _d, postback_attempts: _a, ...row }) => row);
    };

    expect(await countFunnel(batch, context())).toEqual({ batchItemFailures: [] });
    const once = await everything();
    expect(await countFunnel(batch, context())).toEqual({ batchItemFailures: [] });
    const twice = await everything();

    expect(totalsOf(await reader.days(stack.dev.app_id, affiliateId, '2026-11-21', '2026-11-21'))).toEqual({
      clicks: 1,
      registrations: 2,
      ftds: 2,
      deposit_count: 2,
      deposits: '20.2',
      withdrawals: '0',
      bets: '0.2',
      wins: '0.36',
      bonuses: '0',
    });
    expect(once.length).toBe(2 /* ledgers */ + 1 /* day row */ + 2 /* registrations */ + 2 /* FTDs */);
    expect(twice).toEqual(once);
  });
});
