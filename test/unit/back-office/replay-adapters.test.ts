import { beforeEach, describe, expect, test } from '@jest/globals';
import { GetRecordsCommand, GetShardIteratorCommand, KinesisClient } from '@aws-sdk/client-kinesis';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { ChangeMessageVisibilityCommand, DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KinesisStreamEvent } from 'aws-lambda';
import { KinesisRecordReader } from '../../../functions/adapters/kinesis-record-reader';
import { LambdaConsumerInvoker } from '../../../functions/adapters/lambda-consumer-invoker';
import { SqsFailureList } from '../../../functions/adapters/sqs-failure-list';
import { FileFailureList, fileFailureSink, type FailureRecord } from '../../../lib/local/stream-poller/on-failure';

const kinesis = mockClient(KinesisClient);
const sqs = mockClient(SQSClient);
const lambda = mockClient(LambdaClient);

beforeEach(() => {
  kinesis.reset();
  sqs.reset();
  lambda.reset();
});

const failure = (start: string): FailureRecord => ({
  requestContext: { condition: 'RetryAttemptsExhausted', functionArn: 'arn:aws:lambda:eu-west-1:1:function:f', approximateInvokeCount: 11 },
  reason: 'boom',
  version: '1.0',
  timestamp: '2026-11-23T10:00:00Z',
  KinesisBatchInfo: {
    shardId: 'shardId-000000000000',
    startSequenceNumber: start,
    endSequenceNumber: start,
    approximateArrivalOfFirstRecord: '2026-11-23T10:00:00Z',
    approximateArrivalOfLastRecord: '2026-11-23T10:00:00Z',
    batchSize: 1,
    streamArn: 'arn:aws:kinesis:eu-west-1:1:stream/urm',
  },
});

describe('KinesisRecordReader', () => {
  const reader = new KinesisRecordReader(new KinesisClient({ region: 'eu-west-1' }), 'urm-stream');
  const rec = (n: number) => ({ SequenceNumber: String(n), PartitionKey: 'p', Data: new Uint8Array() });

  test('starts at the first sequence number and reads pages until a record past the last', async () => {
    kinesis.on(GetShardIteratorCommand).resolves({ ShardIterator: 'it-1' });
    kinesis.on(GetRecordsCommand, { ShardIterator: 'it-1' }).resolves({ Records: [rec(100), rec(101)], NextShardIterator: 'it-2', MillisBehindLatest: 5 });
    kinesis.on(GetRecordsCommand, { ShardIterator: 'it-2' }).resolves({ Records: [], NextShardIterator: 'it-3', MillisBehindLatest: 5 });
    kinesis.on(GetRecordsCommand, { ShardIterator: 'it-3' }).resolves({ Records: [rec(102), rec(103)], NextShardIterator: 'it-4', MillisBehindLatest: 0 });

    const records = await reader.read({ shardId: 'shardId-000000000001', start: '100', end: '102' });

    expect(records.map((r) => r.SequenceNumber)).toEqual(['100', '101', '102']);
    expect(kinesis).toHaveReceivedCommandWith(GetShardIteratorCommand, {
      StreamName: 'urm-stream',
      ShardId: 'shardId-000000000001',
      ShardIteratorType: 'AT_SEQUENCE_NUMBER',
      StartingSequenceNumber: '100',
    });
    expect(kinesis).toHaveReceivedCommandTimes(GetRecordsCommand, 3);
  });

  test('stops at the tip of the shard when the range reaches past it', async () => {
    kinesis.on(GetShardIteratorCommand).resolves({ ShardIterator: 'it-1' });
    kinesis.on(GetRecordsCommand, { ShardIterator: 'it-1' }).resolves({ Records: [rec(100)], NextShardIterator: 'it-2', MillisBehindLatest: 0 });
    kinesis.on(GetRecordsCommand, { ShardIterator: 'it-2' }).resolves({ Records: [], NextShardIterator: 'it-3', MillisBehindLatest: 0 });

    expect((await reader.read({ shardId: 's', start: '100', end: '200' })).map((r) => r.SequenceNumber)).toEqual(['100']);
    expect(kinesis).toHaveReceivedCommandTimes(GetRecordsCommand, 2);
  });
});

describe('SqsFailureList', () => {
  const list = new SqsFailureList(new SQSClient({ region: 'eu-west-1' }), 'https://sqs/queue');

  test("lists every message's on-failure record, hiding them while replay works, and gives back any other message", async () => {
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({
        Messages: [
          { ReceiptHandle: 'h1', Body: JSON.stringify(failure('100')) },
          { ReceiptHandle: 'h2', Body: 'not a failure' },
        ],
      })
      .resolvesOnce({ Messages: [{ ReceiptHandle: 'h3', Body: JSON.stringify(failure('200')) }] })
      .resolves({ Messages: [] });

    const entries = await list.entries();

    expect(entries.map((e) => [e.handle, e.failure.KinesisBatchInfo.startSequenceNumber])).toEqual([
      ['h1', '100'],
      ['h3', '200'],
    ]);
    expect(sqs).toHaveReceivedCommandWith(ReceiveMessageCommand, { QueueUrl: 'https://sqs/queue', VisibilityTimeout: 900 });
    expect(sqs).toHaveReceivedCommandWith(ChangeMessageVisibilityCommand, { ReceiptHandle: 'h2', VisibilityTimeout: 0 });
  });

  test('removes a replayed entry by deleting its message, and releases another at once', async () => {
    sqs.on(DeleteMessageCommand).resolves({});
    sqs.on(ChangeMessageVisibilityCommand).resolves({});

    await list.remove({ handle: 'h1', failure: failure('100') });
    await list.release({ handle: 'h3', failure: failure('200') });

    expect(sqs).toHaveReceivedCommandWith(DeleteMessageCommand, { QueueUrl: 'https://sqs/queue', ReceiptHandle: 'h1' });
    expect(sqs).toHaveReceivedCommandWith(ChangeMessageVisibilityCommand, { QueueUrl: 'https://sqs/queue', ReceiptHandle: 'h3', VisibilityTimeout: 0 });
  });
});

describe('LambdaConsumerInvoker', () => {
  const invoker = new LambdaConsumerInvoker(new LambdaClient({ region: 'eu-west-1' }));
  const event: KinesisStreamEvent = { Records: [] };

  test('invokes the function synchronously with the event and answers its batch response', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: Buffer.from('{"batchItemFailures":[{"itemIdentifier":"7"}]}') as never });

    const response = await invoker.invoke('urm-RecordEvents', event);

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: '7' }] });
    expect(lambda).toHaveReceivedCommandWith(InvokeCommand, { FunctionName: 'urm-RecordEvents', InvocationType: 'RequestResponse' });
    expect(JSON.parse(Buffer.from(lambda.commandCalls(InvokeCommand)[0].args[0].input.Payload as Uint8Array).toString())).toEqual(event);
  });

  test('throws when the function fails, with its error message', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, FunctionError: 'Unhandled', Payload: Buffer.from('{"errorMessage":"table gone"}') as never });

    await expect(invoker.invoke('urm-RecordEvents', event)).rejects.toThrow('urm-RecordEvents failed (Unhandled): table gone');
  });
});

describe('FileFailureList (the local on-failure destination)', () => {
  test('removes a replayed line and keeps lines the poller appends meanwhile', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'urm-on-failure-')), 'on-failure.jsonl');
    const sink = fileFailureSink(path);
    await sink(failure('100'));
    await sink(failure('200'));
    const list = new FileFailureList(path);
    const [first] = await list.entries();

    await Promise.all([list.remove(first), sink(failure('300')), sink(failure('400'))]);

    const left = readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as FailureRecord).KinesisBatchInfo.startSequenceNumber);
    expect(left.sort()).toEqual(['200', '300', '400']);
  });

  test('lists nothing when there is no file', async () => {
    expect(await new FileFailureList(join(tmpdir(), `none-${Date.now()}.jsonl`)).entries()).toEqual([]);
  });

  test('skips blank lines', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'urm-on-failure-')), 'on-failure.jsonl');
    writeFileSync(path, `${JSON.stringify(failure('100'))}\n\n`);

    expect((await new FileFailureList(path).entries()).map((e) => e.failure.KinesisBatchInfo.startSequenceNumber)).toEqual(['100']);
  });
});
