import { beforeEach, describe, expect, test } from '@jest/globals';
import { KinesisClient, PutRecordsCommand, type PutRecordsCommandInput } from '@aws-sdk/client-kinesis';
import { mockClient } from 'aws-sdk-client-mock';
import { chunkIndexes, KinesisRecordWriter } from '../../../functions/shared/adapters/kinesis-record-writer';
import type { StreamEntry } from '../../../functions/shared/domain/ingest';
import { noWaiting } from '../../support/retry';

const kinesis = mockClient(KinesisClient);
const policy = noWaiting({ maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 2000 });
const writer = new KinesisRecordWriter(new KinesisClient({ region: 'us-east-1' }), 'urm-ingest', policy);

const entry = (n: number, bytes = 10): StreamEntry => ({ partitionKey: `app#p${n}`, data: Buffer.alloc(bytes, n) });
const ok = (n: number) => ({ SequenceNumber: `seq-${n}`, ShardId: 'shardId-000000000000' });
const throttled = { ErrorCode: 'ProvisionedThroughputExceededException', ErrorMessage: 'Rate exceeded' };
const sentKeys = (call: number) =>
  (kinesis.commandCalls(PutRecordsCommand)[call].args[0].input as PutRecordsCommandInput).Records!.map((r) => r.PartitionKey);

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

describe('chunkIndexes', () => {
  test('splits at 500 records', () => {
    const chunks = chunkIndexes(Array.from({ length: 1001 }, (_, i) => entry(i, 1)));
    expect(chunks.map((c) => c.length)).toEqual([500, 500, 1]);
  });

  test('splits before a call would pass 5 MiB', () => {
    const MiB = 1024 * 1024;
    const chunks = chunkIndexes([entry(1, MiB), entry(2, MiB), entry(3, MiB), entry(4, MiB), entry(5, MiB), entry(6, 10)]);
    expect(chunks).toEqual([[0, 1, 2, 3], [4, 5]]);
  });
});
