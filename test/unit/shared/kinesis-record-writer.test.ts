import { beforeEach, describe, expect, test } from '@jest/globals';
import { KinesisClient, PutRecordsCommand, type PutRecordsCommandInput } from '@aws-sdk/client-kinesis';
import { mockClient } from 'aws-sdk-client-mock';
import { chunkIndexes, heldBackMessage, KinesisRecordWriter, keyRounds } from '../../../functions/adapters/kinesis-record-writer';
import type { StreamEntry } from '../../../functions/domain/ingest';
import { noWaiting } from '../../support/retry';

const kinesis = mockClient(KinesisClient);
const policy = noWaiting({ maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 2000 });
const writer = new KinesisRecordWriter(new KinesisClient({ region: 'us-east-1' }), 'urm-ingest', policy);

const ordered = new KinesisRecordWriter(new KinesisClient({ region: 'us-east-1' }), 'urm-ingest', policy, { keepKeyOrder: true });

const entry = (n: number, bytes = 10): StreamEntry => ({ partitionKey: `app#p${n}`, data: Buffer.alloc(bytes, n) });
/** An entry of profile `key` whose data is `data`, to tell the records apart on the stream. */
const keyed = (key: string, data: string): StreamEntry => ({ partitionKey: `app#${key}`, data: Buffer.from(data) });
const dataOf = (r: { Data?: Uint8Array }) => Buffer.from(r.Data!).toString();
const ok = (n: number) => ({ SequenceNumber: `seq-${n}`, ShardId: 'shardId-000000000000' });
const throttled = { ErrorCode: 'ProvisionedThroughputExceededException', ErrorMessage: 'Rate exceeded' };
const sentKeys = (call: number) => (kinesis.commandCalls(PutRecordsCommand)[call].args[0].input as PutRecordsCommandInput).Records!.map((r) => r.PartitionKey);

/** Per call, the data of the records it carried. */
const calls = () => kinesis.commandCalls(PutRecordsCommand).map((call) => (call.args[0].input as PutRecordsCommandInput).Records!.map(dataOf));

/** A stream that keeps what it accepts, in order, and refuses a record while `refuse(data, attempt)` says so. */
function stream(refuse: (data: string, attempt: number) => boolean = () => false): string[] {
  const stored: string[] = [];
  const attempts = new Map<string, number>();
  kinesis.on(PutRecordsCommand).callsFake((input: PutRecordsCommandInput) => {
    const records = input.Records!.map((r) => {
      const data = dataOf(r);
      const attempt = (attempts.get(data) ?? 0) + 1;
      attempts.set(data, attempt);
      if (refuse(data, attempt)) return throttled;
      stored.push(data);
      return { SequenceNumber: `seq-${data}`, ShardId: 'shardId-000000000000' };
    });
    return { FailedRecordCount: records.filter((r) => 'ErrorCode' in r).length, Records: records };
  });
  return stored;
}
const written = (data: string) => ({ SequenceNumber: `seq-${data}`, ShardId: 'shardId-000000000000' });

beforeEach(() => {
  kinesis.reset();
  policy.waits.length = 0;
});

describe('KinesisRecordWriter', () => {
  test('writes all entries in one PutRecords call and answers the receipt in input order', async () => {
    kinesis.on(PutRecordsCommand).resolves({ EncryptionType: 'KMS', FailedRecordCount: 0, Records: [ok(1), ok(2)] });

    const receipt = await writer.write([entry(1), entry(2)]);

    expect(receipt).toEqual({ EncryptionType: 'KMS', FailedRecordCount: 0, Records: [ok(1), ok(2)] });
    expect(kinesis).toHaveReceivedCommandTimes(PutRecordsCommand, 1);
    expect(sentKeys(0)).toEqual(['app#p1', 'app#p2']);
    expect(kinesis).toHaveReceivedNthSpecificCommandWith(1, PutRecordsCommand, { StreamName: 'urm-ingest' });
  });

  test('retries only the refused entries and puts their results in place', async () => {
    kinesis
      .on(PutRecordsCommand)
      .resolvesOnce({ FailedRecordCount: 1, Records: [ok(1), throttled, ok(3)] })
      .resolvesOnce({ FailedRecordCount: 0, Records: [ok(2)] });

    const receipt = await writer.write([entry(1), entry(2), entry(3)]);

    expect(receipt.Records).toEqual([ok(1), ok(2), ok(3)]);
    expect(receipt.FailedRecordCount).toBe(0);
    expect(sentKeys(1)).toEqual(['app#p2']);
  });

  test('gives up after the bounded attempts and reports the entry as Kinesis did', async () => {
    kinesis.on(PutRecordsCommand).callsFake((input: PutRecordsCommandInput) => ({
      FailedRecordCount: 1,
      Records: input.Records!.map((r) => (r.PartitionKey === 'app#p2' ? throttled : ok(1))),
    }));

    const receipt = await writer.write([entry(1), entry(2)]);

    expect(kinesis).toHaveReceivedCommandTimes(PutRecordsCommand, 4);
    expect(receipt.FailedRecordCount).toBe(1);
    expect(receipt.Records[1]).toEqual(throttled);
    expect(receipt.Records[0]).toEqual(ok(1));
  });

  test('backs off exponentially with full jitter between attempts', async () => {
    kinesis.on(PutRecordsCommand).resolves({ FailedRecordCount: 1, Records: [throttled] });

    await writer.write([entry(1)]);

    // random() = 0.5 of 100, 200, 400 ms
    expect(policy.waits).toEqual([50, 100, 200]);
  });

  test('answers NONE as the encryption type when the stream reports none', async () => {
    kinesis.on(PutRecordsCommand).resolves({ FailedRecordCount: 0, Records: [ok(1)] });

    const receipt = await writer.write([entry(1)]);

    expect(receipt.EncryptionType).toBe('NONE');
  });

  test('fails the whole write when the first call fails outright, so the client can re-send', async () => {
    kinesis.on(PutRecordsCommand).rejects(new Error('ResourceNotFoundException'));

    await expect(writer.write([entry(1)])).rejects.toThrow(/ResourceNotFoundException/);
  });

  test('marks the entries of a failed later call as failed once others were written', async () => {
    kinesis
      .on(PutRecordsCommand)
      .resolvesOnce({ FailedRecordCount: 0, Records: Array.from({ length: 500 }, (_, i) => ok(i)) })
      .rejectsOnce(new Error('socket hang up'));

    const receipt = await writer.write(Array.from({ length: 501 }, (_, i) => entry(i)));

    expect(receipt.FailedRecordCount).toBe(1);
    expect(receipt.Records[500]).toEqual({ ErrorCode: 'InternalFailure', ErrorMessage: 'Internal service failure.' });
  });
});

describe('KinesisRecordWriter keeping each key in order', () => {
  test('sends in rounds: the r-th entry of each key goes in round r, after round r - 1; keys with one entry all go in round 1', async () => {
    const stored = stream();

    const receipt = await ordered.write([keyed('p1', 'a'), keyed('p2', 'x'), keyed('p1', 'b'), keyed('p1', 'c'), keyed('p3', 'y'), keyed('p2', 'z')]);

    expect(calls()).toEqual([['a', 'x', 'y'], ['b', 'z'], ['c']]);
    expect(stored).toEqual(['a', 'x', 'y', 'b', 'z', 'c']);
    expect(receipt.FailedRecordCount).toBe(0);
    expect(receipt.Records).toEqual(['a', 'x', 'b', 'c', 'y', 'z'].map(written));
  });

  test("a refused entry is retried, with backoff, before its key's next entry goes", async () => {
    const stored = stream((data, attempt) => data === 'a' && attempt === 1);

    const receipt = await ordered.write([keyed('p1', 'a'), keyed('p2', 'x'), keyed('p1', 'b')]);

    expect(calls()).toEqual([['a', 'x'], ['a'], ['b']]);
    expect(stored).toEqual(['x', 'a', 'b']);
    expect(policy.waits).toEqual([50]);
    expect(receipt.Records).toEqual([written('a'), written('x'), written('b')]);
  });

  test("an entry refused for good fails its key's later entries unsent, saying so; other keys go on", async () => {
    const stored = stream((data) => data === 'a');

    const receipt = await ordered.write([keyed('p1', 'a'), keyed('p2', 'x'), keyed('p1', 'b'), keyed('p2', 'y'), keyed('p1', 'c')]);

    expect(calls()).toEqual([['a', 'x'], ['a'], ['a'], ['a'], ['y']]);
    expect(stored).toEqual(['x', 'y']);
    expect(receipt.FailedRecordCount).toBe(3);
    expect(receipt.Records).toEqual([
      throttled,
      written('x'),
      { ErrorCode: throttled.ErrorCode, ErrorMessage: 'Not written: an earlier record of the same profile ([0]) was refused' },
      written('y'),
      { ErrorCode: throttled.ErrorCode, ErrorMessage: heldBackMessage(0) },
    ]);
  });

  test("entries of a call that fails outright after others were written hold back their keys' later entries", async () => {
    const keys = Array.from({ length: 501 }, (_, i) => keyed(`p${i}`, `first-${i}`));
    kinesis
      .on(PutRecordsCommand)
      .resolvesOnce({ FailedRecordCount: 0, Records: Array.from({ length: 500 }, (_, i) => ok(i)) })
      .rejectsOnce(new Error('socket hang up'))
      .resolves({ FailedRecordCount: 0, Records: [ok(1000)] });

    const receipt = await ordered.write([...keys, keyed('p500', 'second-500'), keyed('p0', 'second-0')]);

    expect(calls().map((call) => call.length)).toEqual([500, 1, 1]);
    expect(calls()[2]).toEqual(['second-0']);
    expect(receipt.Records[500]).toEqual({ ErrorCode: 'InternalFailure', ErrorMessage: 'Internal service failure.' });
    expect(receipt.Records[501]).toEqual({ ErrorCode: 'InternalFailure', ErrorMessage: heldBackMessage(500) });
    expect(receipt.Records[502]).toEqual(ok(1000));
    expect(receipt.FailedRecordCount).toBe(2);
  });

  test('a round is chunked by 500 records like any write: 300 keys with two entries each take two calls', async () => {
    stream();
    const entries = [0, 1].flatMap((round) => Array.from({ length: 300 }, (_, i) => keyed(`p${i}`, `${round}-${i}`)));

    const receipt = await ordered.write(entries);

    expect(calls().map((call) => call.length)).toEqual([300, 300]);
    expect(receipt.FailedRecordCount).toBe(0);
  });
});

describe('keyRounds', () => {
  test('puts the r-th entry of each key in round r, in input order', () => {
    expect(keyRounds([keyed('p1', 'a'), keyed('p2', 'x'), keyed('p1', 'b'), keyed('p3', 'y'), keyed('p1', 'c'), keyed('p2', 'z')])).toEqual([
      [0, 1, 3],
      [2, 5],
      [4],
    ]);
  });
});

describe('chunkIndexes', () => {
  test('splits at 500 records', () => {
    const chunks = chunkIndexes(Array.from({ length: 1001 }, (_, i) => entry(i, 1)));
    expect(chunks.map((c) => c.length)).toEqual([500, 500, 1]);
  });

  test('splits before a call would pass 5 MiB', () => {
    const MiB = 1024 * 1024;
    const chunks = chunkIndexes([entry(1, MiB), entry(2, MiB), entry(3, MiB), entry(4, MiB), entry(5, MiB), entry(6, 10)]);
    expect(chunks).toEqual([
      [0, 1, 2, 3],
      [4, 5],
    ]);
  });

  test('chunks only the indexes it is given, by their own sizes', () => {
    const MiB = 1024 * 1024;
    const chunks = chunkIndexes([entry(1, 10), entry(2, 3 * MiB), entry(3, 10), entry(4, 3 * MiB)], [1, 3]);
    expect(chunks).toEqual([[1], [3]]);
  });
});
