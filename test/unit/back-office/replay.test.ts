import { describe, expect, test } from '@jest/globals';
import type { _Record } from '@aws-sdk/client-kinesis';
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import {
  replayFailures,
  type ConsumerInvoker,
  type FailureEntry,
  type FailureList,
  type RecordReader,
  type ReplayTarget,
} from '../../../functions/back-office/replay';
import { streamConsumers } from '../../../functions/manifest/operations';

const profiles = { consumer: streamConsumers.find((c) => c.id === 'ApplyProfiles')!, functionName: 'urm-ApplyProfiles-abc' };
const events = { consumer: streamConsumers.find((c) => c.id === 'RecordEvents')!, functionName: 'urm-RecordEvents-def' };
const targets: ReplayTarget[] = [profiles, events];
const streamArn = 'arn:aws:kinesis:eu-west-1:123456789012:stream/urm';

function record(sequenceNumber: string, kind: 'profile' | 'event'): _Record {
  return {
    SequenceNumber: sequenceNumber,
    PartitionKey: 'app#p1',
    Data: Buffer.from(JSON.stringify({ v: 1, kind, received_at: '2026-11-23T10:00:00Z', record: { profile_id: 'p1' } })),
    ApproximateArrivalTimestamp: new Date('2026-11-23T10:00:00Z'),
  };
}

function failure(handle: string, functionName: string, start: string, end: string, shardId = 'shardId-000000000001'): FailureEntry {
  return {
    handle,
    failure: {
      requestContext: { functionArn: `arn:aws:lambda:eu-west-1:123456789012:function:${functionName}`, condition: 'RetryAttemptsExhausted' },
      KinesisBatchInfo: { shardId, startSequenceNumber: start, endSequenceNumber: end, batchSize: 1, streamArn },
    },
  };
}

class FakeList implements FailureList {
  removed: string[] = [];
  released: string[] = [];
  constructor(public listed: FailureEntry[]) {}
  async entries() {
    return [...this.listed];
  }
  async remove(entry: FailureEntry) {
    this.removed.push(entry.handle);
    this.listed = this.listed.filter((e) => e !== entry);
  }
  async release(entry: FailureEntry) {
    this.released.push(entry.handle);
  }
}

/** A shard as the stream holds it: reads return from `start` to beyond `end`, as GetRecords may. */
class FakeShard implements RecordReader {
  reads: { shardId: string; start: string; end: string }[] = [];
  constructor(private readonly records: _Record[]) {}
  async read(range: { shardId: string; start: string; end: string }) {
    this.reads.push(range);
    return this.records.filter((r) => BigInt(r.SequenceNumber!) >= BigInt(range.start));
  }
}

class FakeInvoker implements ConsumerInvoker {
  calls: { functionName: string; event: KinesisStreamEvent }[] = [];
  constructor(private readonly answer: (event: KinesisStreamEvent) => KinesisStreamBatchResponse | undefined = () => ({ batchItemFailures: [] })) {}
  async invoke(functionName: string, event: KinesisStreamEvent) {
    this.calls.push({ functionName, event });
    return this.answer(event);
  }
}

const shard = () => new FakeShard([record('100', 'profile'), record('101', 'event'), record('102', 'profile'), record('103', 'profile')]);

describe('replayFailures', () => {
  test("invokes the listed consumer with the range's records of its kinds, as Lambda's Kinesis event, then removes the entry", async () => {
    const list = new FakeList([failure('m1', profiles.functionName, '100', '102')]);
    const invoker = new FakeInvoker();

    const outcomes = await replayFailures({ failures: list, records: shard(), invoker, targets, region: 'eu-west-1' });

    expect(invoker.calls).toHaveLength(1);
    expect(invoker.calls[0].functionName).toBe(profiles.functionName);
    expect(invoker.calls[0].event.Records.map((r) => r.kinesis.sequenceNumber)).toEqual(['100', '102']);
    expect(invoker.calls[0].event.Records[0]).toMatchObject({
      eventSource: 'aws:kinesis',
      eventID: 'shardId-000000000001:100',
      eventSourceARN: streamArn,
      awsRegion: 'eu-west-1',
      kinesis: { partitionKey: 'app#p1', data: Buffer.from(record('100', 'profile').Data!).toString('base64') },
    });
    expect(list.removed).toEqual(['m1']);
    expect(outcomes).toEqual([
      { shardId: 'shardId-000000000001', startSequenceNumber: '100', endSequenceNumber: '102', consumer: 'ApplyProfiles', records: 2, status: 'replayed' },
    ]);
  });

  test('reads the shard and range the entry names', async () => {
    const records = shard();

    await replayFailures({
      failures: new FakeList([failure('m1', events.functionName, '101', '101')]),
      records,
      invoker: new FakeInvoker(),
      targets,
      region: 'r',
    });

    expect(records.reads).toEqual([{ shardId: 'shardId-000000000001', start: '101', end: '101' }]);
  });

  test('keeps (and releases) an entry whose consumer throws, and replays the others', async () => {
    const list = new FakeList([failure('m1', profiles.functionName, '100', '100'), failure('m2', events.functionName, '101', '101')]);
    const invoker = new FakeInvoker((event) => {
      if (event.Records[0].kinesis.sequenceNumber === '100') throw new Error('table unwritable');
      return { batchItemFailures: [] };
    });

    const outcomes = await replayFailures({ failures: list, records: shard(), invoker, targets, region: 'r' });

    expect(list.removed).toEqual(['m2']);
    expect(list.released).toEqual(['m1']);
    expect(outcomes.map((o) => [o.status, o.error])).toEqual([
      ['failed', 'table unwritable'],
      ['replayed', undefined],
    ]);
  });

  test('keeps an entry whose consumer reports a batch item failure', async () => {
    const list = new FakeList([failure('m1', profiles.functionName, '100', '103')]);
    const invoker = new FakeInvoker(() => ({ batchItemFailures: [{ itemIdentifier: '102' }] }));

    const [outcome] = await replayFailures({ failures: list, records: shard(), invoker, targets, region: 'r' });

    expect(list.removed).toEqual([]);
    expect(outcome).toMatchObject({ status: 'failed', error: 'the consumer did not apply 102' });
  });

  test('keeps an entry whose first record the stream no longer holds, and invokes nothing', async () => {
    const list = new FakeList([failure('m1', profiles.functionName, '99', '100')]);
    const invoker = new FakeInvoker();

    const [outcome] = await replayFailures({ failures: list, records: shard(), invoker, targets, region: 'r' });

    expect(invoker.calls).toEqual([]);
    expect(list.removed).toEqual([]);
    expect(outcome).toMatchObject({ status: 'failed', error: 'record 99 is no longer on the stream' });
  });

  test('keeps an entry of a function that is none of the consumers', async () => {
    const list = new FakeList([failure('m1', 'someone-else', '100', '100')]);
    const invoker = new FakeInvoker();

    const [outcome] = await replayFailures({ failures: list, records: shard(), invoker, targets, region: 'r' });

    expect(invoker.calls).toEqual([]);
    expect(list.removed).toEqual([]);
    expect(outcome).toMatchObject({ status: 'failed', error: 'no consumer of this stack is function someone-else' });
  });

  test('hands a long range to the consumer in batches of its batch size', async () => {
    const many = new FakeShard(Array.from({ length: 250 }, (_, i) => record(String(1000 + i), 'event')));
    const invoker = new FakeInvoker();

    const [outcome] = await replayFailures({
      failures: new FakeList([failure('m1', events.functionName, '1000', '1249')]),
      records: many,
      invoker,
      targets,
      region: 'r',
    });

    expect(invoker.calls.map((c) => c.event.Records.length)).toEqual([100, 100, 50]);
    expect(outcome).toMatchObject({ status: 'replayed', records: 250 });
  });

  test('keeps each event it hands the consumer under 5 MiB, within what a synchronous invocation takes', async () => {
    const big = (n: number): _Record => ({
      ...record(String(2000 + n), 'event'),
      Data: Buffer.from(JSON.stringify({ v: 1, kind: 'event', record: { profile_id: 'p1', note: 'a'.repeat(900 * 1024) } })),
    });
    const invoker = new FakeInvoker();

    await replayFailures({
      failures: new FakeList([failure('m1', events.functionName, '2000', '2009')]),
      records: new FakeShard(Array.from({ length: 10 }, (_, n) => big(n))),
      invoker,
      targets,
      region: 'r',
    });

    expect(invoker.calls.map((c) => c.event.Records.length)).toEqual([4, 4, 2]);
    for (const call of invoker.calls) expect(JSON.stringify(call.event).length).toBeLessThan(5 * 1024 * 1024);
  });

  test('with nothing listed, invokes nothing', async () => {
    const invoker = new FakeInvoker();

    expect(await replayFailures({ failures: new FakeList([]), records: shard(), invoker, targets, region: 'r' })).toEqual([]);
    expect(invoker.calls).toEqual([]);
  });
});
