/**
 * The event-source mapping's on-failure destination: the record Lambda sends
 * (to SQS in AWS) for a batch it gives up on, plus the reason, appended here
 * as one JSON line to a file.
 */
import type { _Record } from '@aws-sdk/client-kinesis';
import { appendFile } from 'node:fs/promises';

/** Lambda's on-failure record for Kinesis, plus the reason, appended as one JSON line. */
export interface FailureRecord {
  requestContext: { condition: 'RetryAttemptsExhausted' | 'RecordAgeExceeded'; functionArn: string; approximateInvokeCount: number };
  reason: string;
  version: '1.0';
  timestamp: string;
  KinesisBatchInfo: {
    shardId: string;
    startSequenceNumber: string;
    endSequenceNumber: string;
    approximateArrivalOfFirstRecord: string;
    approximateArrivalOfLastRecord: string;
    batchSize: number;
    streamArn: string;
  };
}

export function fileFailureSink(path: string) {
  return async (failure: FailureRecord) => appendFile(path, `${JSON.stringify(failure)}\n`);
}

/** The on-failure record of a batch given up on, as Lambda makes it. */
export function failureRecord(input: {
  functionName: string;
  region: string;
  streamArn: string;
  shardId: string;
  batch: _Record[];
  invokeCount: number;
  tooOld: boolean;
  reason: string;
}): FailureRecord {
  const { batch } = input;
  return {
    requestContext: {
      condition: input.tooOld ? 'RecordAgeExceeded' : 'RetryAttemptsExhausted',
      functionArn: `arn:aws:lambda:${input.region}:000000000000:function:${input.functionName}`,
      approximateInvokeCount: input.invokeCount,
    },
    reason: input.reason,
    version: '1.0',
    timestamp: new Date().toISOString(),
    KinesisBatchInfo: {
      shardId: input.shardId,
      startSequenceNumber: batch[0].SequenceNumber!,
      endSequenceNumber: batch.at(-1)!.SequenceNumber!,
      approximateArrivalOfFirstRecord: (batch[0].ApproximateArrivalTimestamp ?? new Date()).toISOString(),
      approximateArrivalOfLastRecord: (batch.at(-1)!.ApproximateArrivalTimestamp ?? new Date()).toISOString(),
      batchSize: batch.length,
      streamArn: input.streamArn,
    },
  };
}
