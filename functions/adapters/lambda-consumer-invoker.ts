/**
 * ConsumerInvoker on Lambda, for replay: a synchronous (RequestResponse)
 * Invoke of the deployed consumer with the Kinesis event, as its event-source
 * mapping would invoke it. A function error is thrown with its message.
 */
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import type { ConsumerInvoker } from '../back-office/replay';

export class LambdaConsumerInvoker implements ConsumerInvoker {
  constructor(private readonly client: LambdaClient) {}

  // biome-ignore lint/suspicious/noConfusingVoidType: the port's type (replay.ts): a consumer may return nothing.
  async invoke(functionName: string, event: KinesisStreamEvent): Promise<KinesisStreamBatchResponse | void> {
    const out = await this.client.send(
      new InvokeCommand({ FunctionName: functionName, InvocationType: 'RequestResponse', Payload: Buffer.from(JSON.stringify(event)) }),
    );
    const payload = out.Payload ? Buffer.from(out.Payload).toString('utf8') : '';
    if (out.FunctionError) {
      let message = payload;
      try {
        message = (JSON.parse(payload) as { errorMessage?: string }).errorMessage ?? payload;
      } catch {
        // not JSON: the raw payload says it
      }
      throw new Error(`${functionName} failed (${out.FunctionError}): ${message}`);
    }
    return payload && payload !== 'null' ? (JSON.parse(payload) as KinesisStreamBatchResponse) : undefined;
  }
}
