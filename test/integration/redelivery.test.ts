/**
 * Redelivery after a partial failure, as Lambda's Kinesis event source does
 * it: a batch in which one profile cannot be written is answered with that
 * profile's first sequence number, and the stream delivers again from there
 * (records of other profiles already applied come again, after later ones);
 * then late duplicates of the whole batch. Event batches that throw come back
 * bisected, halves in any order. The consumers run in this process against
 * the stack's DynamoDB Local; a fault is injected into their DynamoDB client.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Context, KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { ingestStream, tables } from '../../functions/manifest/resources';
import { deliveryCounts, formatCounts, type Expected } from '../support/delivery-counts';
import { funnelOf, totalsOf } from '../support/funnel';
import { kinesisEvent, sequenceNumbers, type EventRecordInput } from '../support/kinesis-event';
import { context } from '../support/lambda';
import { testStack, type TestStack } from '../support/local-stack';
import { readProfile, readTimeline } from '../support/profiles';

type Consumer = (event: KinesisStreamEvent, context: Context) => Promise<KinesisStreamBatchResponse>;

let stack: TestStack;
let applyProfiles: Consumer;
let recordEvents: Consumer;
let countFunnel: Consumer;
/** When set, DynamoDB calls it matches fail as a DynamoDB outage would. */
let fault: ((command: string, input: Record<string, any>) => boolean) | undefined;
let injected = 0;

beforeAll(async () => {
  stack = await testStack();
  Object.assign(process.env, {
    AWS_REGION: stack.endpoints.region,
    AWS_ACCESS_KEY_ID: stack.endpoints.access_key_id,
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: stack.endpoints.dynamodb_endpoint,
    // Where the profile consumer puts the continuation of a long delete or merge.
    AWS_ENDPOINT_URL_KINESIS: stack.endpoints.kinesis_endpoint,
    [ingestStream.envVar]: ingestStream.localName,
    // The faults are injected on purpose: their error logs would only bury the counts.
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    ...Object.fromEntries(Object.values(tables).map((t) => [t.envVar, t.localName])),
  });
  const { dynamo } = await import('../../functions/adapters/clients/dynamo');
  dynamo.middlewareStack.add(
    (next, ctx) => async (args) => {
      if (fault?.(ctx.commandName ?? '', args.input as Record<string, any>)) {
        injected++;
        throw Object.assign(new Error('injected fault: internal server error'), { name: 'InternalServerError', $fault: 'server' });
      }
      return next(args);
    },
    { step: 'initialize', name: 'injectedFault' },
  );
  applyProfiles = (await import('../../functions/consumers/apply-profiles/handler')).handler as unknown as Consumer;
  recordEvents = (await import('../../functions/consumers/record-events/handler')).handler as unknown as Consumer;
  countFunnel = (await import('../../functions/consumers/count-funnel/handler')).handler as unknown as Consumer;
});
afterAll(() => {
  fault = undefined;
});

const shardId = () => `shardId-redelivery-${randomUUID()}`;

async function observed(profileIds: string[]): Promise<Map<string, Expected & { order: number[] }>> {
  const seen = new Map<string, Expected & { order: number[] }>();
  for (const id of profileIds) {
    const profile = await readProfile(stack, id);
    const attributes = profile.status === 200 ? profile.body.attributes : {};
    seen.set(id, { updates: (attributes.n as number) ?? 0, events: (await readTimeline(stack, id)).length, order: (attributes.order as number[]) ?? [] });
  }
  return seen;
}

describe('redelivery after a partial failure', () => {
  test('a profile that failed is applied from its sequence number on; the others are not applied twice', async () => {
    const run = randomUUID().slice(0, 8);
    const profileIds = ['a', 'b', 'c'].map((p) => `partial-${run}-${p}`);
    const PER_PROFILE = 10;
    const shard = shardId();
    const seqs = sequenceNumbers(PER_PROFILE * profileIds.length, 1_000n);
    // Stream order interleaves the profiles: a0 b0 c0 a1 b1 c1 …; each record adds 1 and appends its position.
    const inputs: EventRecordInput[] = seqs.map((sequenceNumber, i) => ({
      kind: 'profile',
      shardId: shard,
      sequenceNumber,
      record: {
        app_id: stack.dev.app_id,
        profile_id: profileIds[i % profileIds.length],
        urm_date_time: '2026-11-21T10:00:00Z',
        urm_insert_id: randomUUID(),
        urm_add: { n: 1 },
        urm_append: { order: [Math.floor(i / profileIds.length)] },
      },
    }));
    const failing = `${stack.dev.app_id}#${profileIds[1]}`;

    // Every write of that profile fails: a plain conditional put, or (a new profile) the transaction that also counts it.
    fault = (command, input) =>
      (command === 'PutItemCommand' && input.TableName === tables.profiles.localName && input.Item?.pk === failing) ||
      (command === 'TransactWriteItemsCommand' &&
        (input.TransactItems as { Put?: { TableName: string; Item: { pk: string } } }[]).some(
          (item) => item.Put?.TableName === tables.profiles.localName && item.Put.Item.pk === failing,
        ));
    const first = await applyProfiles(kinesisEvent(inputs), context());
    fault = undefined;
    expect(first.batchItemFailures).toEqual([{ itemIdentifier: seqs[1] }]);
    const retryFrom = inputs.findIndex((input) => input.sequenceNumber === first.batchItemFailures[0].itemIdentifier);

    // Lambda delivers again from the failed sequence number: later records of a and c come again.
    const redelivered = await applyProfiles(kinesisEvent(inputs.slice(retryFrom)), context());
    // Late duplicates: the second half, then the whole batch.
    const late1 = await applyProfiles(kinesisEvent(inputs.slice(inputs.length / 2)), context());
    const late2 = await applyProfiles(kinesisEvent(inputs), context());

    const seen = await observed(profileIds);
    const expected = new Map(profileIds.map((id) => [id, { updates: PER_PROFILE, events: 0 }]));
    const counts = deliveryCounts(expected, seen);
    console.log(formatCounts(`partial failure then redelivery (${injected} injected failures)`, counts));
    for (const response of [redelivered, late1, late2]) expect(response.batchItemFailures).toEqual([]);
    expect(counts.duplicated).toBe(0);
    expect(counts.lost).toBe(0);
    for (const id of profileIds) expect(seen.get(id)!.order).toEqual(Array.from({ length: PER_PROFILE }, (_, i) => i));
  });

  test('an event batch that failed comes back bisected, halves out of order, and every event is stored once', async () => {
    const run = randomUUID().slice(0, 8);
    const profileIds = Array.from({ length: 4 }, (_, i) => `bisect-${run}-${i}`);
    const PER_PROFILE = 25;
    const shard = shardId();
    const seqs = sequenceNumbers(PER_PROFILE * profileIds.length, 5_000n);
    const inputs: EventRecordInput[] = seqs.map((sequenceNumber, i) => ({
      kind: 'event',
      shardId: shard,
      sequenceNumber,
      record: {
        app_id: stack.dev.app_id,
        profile_id: profileIds[i % profileIds.length],
        event: 'spin',
        urm_date_time: `2026-11-21T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`,
        urm_insert_id: randomUUID(),
        i,
      },
    }));

    // The third timeline write of the batch fails: part of the batch is already stored when the handler throws.
    let writes = 0;
    fault = (command, input) => command === 'PutItemCommand' && input.TableName === tables.timeline.localName && ++writes === 3;
    await expect(recordEvents(kinesisEvent(inputs), context())).rejects.toThrow();
    fault = undefined;

    const middle = inputs.length / 2;
    for (const half of [inputs.slice(middle), inputs.slice(0, middle), inputs]) {
      expect(await recordEvents(kinesisEvent(half), context())).toEqual({ batchItemFailures: [] });
    }

    const seen = await observed(profileIds);
    const counts = deliveryCounts(new Map(profileIds.map((id) => [id, { updates: 0, events: PER_PROFILE }])), seen);
    console.log(formatCounts(`event batch failed, bisected and redelivered out of order (${writes} timeline writes attempted before the fault)`, counts));
    expect(counts.duplicated).toBe(0);
    expect(counts.lost).toBe(0);
  });

  test('a funnel batch that failed after its day rows, before its ledgers, comes back bisected and counts every figure once', async () => {
    const run = randomUUID().slice(0, 8);
    const affiliateId = `aff-bisect-${run}`;
    const players = Array.from({ length: 5 }, (_, i) => `funnel-${run}-${i}`);
    const shard = shardId();
    // Per player: a deposit before the attribution, the attribution, then a bet and a win on each of 4 rounds.
    const records = players.flatMap((player, p) => [
      { event: 'Deposit', amount: 10 + p, currency: 'EUR', profile_id: player },
      { event: 'urm_affiliate_attributed', urm_aff_id: affiliateId, urm_aff_link_id: `link-${p % 2}`, profile_id: player },
      ...Array.from({ length: 4 }, () => [
        { event: 'Bet', amount: 0.1, currency: 'EUR', profile_id: player },
        { event: 'Win', amount: 0.05, currency: 'EUR', profile_id: player },
      ]).flat(),
    ]);
    const seqs = sequenceNumbers(records.length, 9_000n);
    const inputs: EventRecordInput[] = records.map((fields, i) => ({
      kind: 'event',
      shardId: shard,
      sequenceNumber: seqs[i],
      record: { app_id: stack.dev.app_id, urm_date_time: '2026-11-21T10:00:00Z', urm_insert_id: randomUUID(), ...fields },
    }));
    const { reader } = funnelOf(stack.endpoints);
    const totals = async () => totalsOf(await reader.days(stack.dev.app_id, affiliateId, '2026-11-21', '2026-11-21'));

    // The third ledger write fails: day rows are written, some ledgers too, the rest not, when the handler throws.
    let ledgerWrites = 0;
    fault = (command, input) =>
      command === 'PutItemCommand' && input.TableName === tables.funnel.localName && input.Item?.sk === 'ledger' && ++ledgerWrites === 3;
    await expect(countFunnel(kinesisEvent(inputs), context())).rejects.toThrow();
    fault = undefined;
    // Lambda retries the halves of a shard's batch in stream order (a player's later records never come before
    // earlier ones); then a late duplicate of the whole batch.
    const middle = inputs.length / 2;
    for (const half of [inputs.slice(0, middle), inputs.slice(middle), inputs]) {
      expect(await countFunnel(kinesisEvent(half), context())).toEqual({ batchItemFailures: [] });
    }

    expect(await totals()).toEqual({
      clicks: 0,
      registrations: 5,
      ftds: 5,
      deposit_count: 5,
      deposits: '60',
      withdrawals: '0',
      bets: '2',
      wins: '1',
      bonuses: '0',
    });
  });
});
