/**
 * FailureList on the consumers' SQS on-failure queue, for replay. Each message
 * is Lambda's on-failure record of a Kinesis batch. Received messages stay
 * hidden while replay works (the visibility timeout); a replayed one is
 * deleted, any other is made visible again at once.
 */
import { ChangeMessageVisibilityCommand, DeleteMessageCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { FailureEntry, FailureList, KinesisFailureRecord } from '../back-office/replay';

/** Long enough for one replay run to finish with every message it received. */
const VISIBILITY_TIMEOUT_SECONDS = 15 * 60;

export class SqsFailureList implements FailureList {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async entries(): Promise<FailureEntry[]> {
    const entries: FailureEntry[] = [];
    for (;;) {
      const out = await this.client.send(
        new ReceiveMessageCommand({
          QueueUrl: this.queueUrl,
          MaxNumberOfMessages: 10,
          VisibilityTimeout: VISIBILITY_TIMEOUT_SECONDS,
          WaitTimeSeconds: 1,
        }),
      );
      const messages = out.Messages ?? [];
      if (messages.length === 0) return entries;
      for (const message of messages) {
        const failure = parse(message.Body);
        if (failure) entries.push({ handle: message.ReceiptHandle!, failure });
        else await this.release({ handle: message.ReceiptHandle! } as FailureEntry);
      }
    }
  }

  async remove(entry: FailureEntry): Promise<void> {
    await this.client.send(new DeleteMessageCommand({ QueueUrl: this.queueUrl, ReceiptHandle: entry.handle }));
  }

  async release(entry: FailureEntry): Promise<void> {
    await this.client.send(new ChangeMessageVisibilityCommand({ QueueUrl: this.queueUrl, ReceiptHandle: entry.handle, VisibilityTimeout: 0 }));
  }
}

/** Lambda's on-failure record of a Kinesis batch, or undefined for any other message. */
function parse(body: string | undefined): KinesisFailureRecord | undefined {
  try {
    const failure = JSON.parse(body ?? '') as KinesisFailureRecord;
    return failure?.KinesisBatchInfo?.shardId && failure.requestContext?.functionArn ? failure : undefined;
  } catch {
    return undefined;
  }
}
