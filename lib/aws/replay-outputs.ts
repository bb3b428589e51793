/**
 * The stack outputs replay and alarm subscribers read, apart from the stack so
 * the admin command line can name them without loading the CDK.
 */
import { streamConsumers } from '../../functions/manifest/operations';

export const failureOutputs = {
  /** The ingestion stream, which replay reads the failed batches from. */
  streamName: 'StreamName',
  /** The consumers' on-failure queue, and each consumer's function: what `npm run admin -- replay` reads and invokes. */
  failureQueueUrl: 'ConsumerFailureQueueUrl',
  consumerFunctions: Object.fromEntries(streamConsumers.map((consumer) => [consumer.id, `${consumer.id}FunctionName`])) as Record<string, string>,
  /** The SNS topic every alarm notifies: subscribe to it. */
  alarmTopicArn: 'AlarmTopicArn',
} as const;
