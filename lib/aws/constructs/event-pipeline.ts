/**
 * The ingestion stream and its consumers. A consumer sees only the record
 * kinds it handles, reports partial batch failures, and after bounded retries
 * hands a failing batch's position to the on-failure queue instead of
 * blocking its shard.
 */
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Stream, StreamConsumer, StreamEncryption, StreamMode } from 'aws-cdk-lib/aws-kinesis';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { KinesisConsumerEventSource, KinesisEventSource, SqsDlq, type KinesisEventSourceProps } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { StreamRecordKind } from '../../../functions/domain/stream-record';
import { streamConsumers } from '../../../functions/manifest/operations';
import { ingestStream, type TableName } from '../../../functions/manifest/resources';
import { consumerTimeout, definedFunction } from './function-defaults';

export interface EventPipelineProps {
  tables: Record<TableName, ITable>;
  /** For the consumers that send push (pushEndpoints): the operator's push endpoint hosts. */
  pushEndpointHosts?: string;
  /** For the consumers that send webhooks (postbackHosts): the operator's development postback hosts. */
  postbackHosts?: string;
}

/** Matches the `kind` of the JSON envelope (functions/domain/stream-record.ts). */
function kindFilter(kinds: StreamRecordKind[]) {
  const kind = kinds.length === 1 ? FilterRule.isEqual(kinds[0]) : FilterRule.or(...kinds);
  return FilterCriteria.filter({ data: { kind } });
}

export class EventPipeline extends Construct {
  readonly stream: Stream;
  readonly failureQueue: Queue;
  /** Consumer functions by their id in functions/manifest/operations.ts. */
  readonly consumers: Record<string, NodejsFunction> = {};

  constructor(scope: Construct, id: string, props: EventPipelineProps) {
    super(scope, id);

    this.stream = new Stream(this, ingestStream.id, {
      streamMode: StreamMode.ON_DEMAND,
      encryption: StreamEncryption.MANAGED,
      // Longer than the consumers' record age: what the on-failure queue points at can still be replayed.
      retentionPeriod: Duration.days(ingestStream.retentionDays),
    });

    this.failureQueue = new Queue(this, 'ConsumerFailureQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // The longest SQS allows; replay (`npm run admin -- replay`) needs the records, which the stream keeps 7 days.
      retentionPeriod: Duration.days(14),
    });

    for (const consumer of streamConsumers) {
      const fn = definedFunction(
        this,
        consumer,
        { tables: props.tables, stream: this.stream, pushEndpointHosts: props.pushEndpointHosts, postbackHosts: props.postbackHosts },
        { timeout: consumerTimeout },
      );
      const source: KinesisEventSourceProps = {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: consumer.batchSize,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: consumer.retryAttempts,
        maxRecordAge: Duration.seconds(consumer.maxRecordAgeSeconds),
        onFailure: new SqsDlq(this.failureQueue),
        filters: [kindFilter(consumer.kinds)],
        // One batch per shard at a time: a profile's records (one partition key) stay in order.
        parallelizationFactor: 1,
      };
      fn.addEventSource(
        consumer.fanOut === 'enhanced'
          ? new KinesisConsumerEventSource(
              new StreamConsumer(this, `${consumer.id}StreamConsumer`, { stream: this.stream, streamConsumerName: consumer.id }),
              source,
            )
          : new KinesisEventSource(this.stream, source),
      );
      this.consumers[consumer.id] = fn;
    }
  }
}
