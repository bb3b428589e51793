/**
 * The alarms that say the pipeline needs someone: a consumer falling behind the
 * stream or failing, a batch on the on-failure queue (replay it:
 * `npm run admin -- replay`), the API answering 5xx. All notify one topic,
 * whose ARN is a stack output to subscribe to.
 */
import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Key } from 'aws-cdk-lib/aws-kms';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface AlarmsProps {
  /** Stream consumers by their id in functions/manifest/operations.ts. */
  consumers: Record<string, IFunction>;
  failureQueue: IQueue;
  api: RestApi;
}

/** A consumer this far behind the stream is alarmed on: far inside its record age (days), time to act. */
export const iteratorAgeAlarmMs = 60 * 60 * 1000;

export class Alarms extends Construct {
  readonly topic: Topic;
  /** The topic's key: a customer-managed one, as CloudWatch cannot publish to a topic under the AWS-managed SNS key. */
  readonly key: Key;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);

    this.key = new Key(this, 'TopicKey', { description: 'urm alarm topic', enableKeyRotation: true });
    this.key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new Topic(this, 'AlarmTopic', { masterKey: this.key, enforceSSL: true });

    // No data is no trouble: a consumer with nothing to read, an idle API, an empty queue report nothing.
    const alarm = (id: string, metric: IMetric, description: string, threshold = 0) => {
      new Alarm(this, id, {
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      }).addAlarmAction(new SnsAction(this.topic));
    };
    const period = Duration.minutes(5);
    for (const [consumerId, fn] of Object.entries(props.consumers)) {
      alarm(
        `${consumerId}IteratorAge`,
        fn.metric('IteratorAge', { statistic: 'Maximum', period }),
        `${consumerId} is more than an hour behind the stream: records wait, and after the record age go to the on-failure queue.`,
        iteratorAgeAlarmMs,
      );
      alarm(
        `${consumerId}Errors`,
        fn.metricErrors({ statistic: 'Sum', period }),
        `${consumerId} failed an invocation: the batch is retried, bisected, and after its retries sent to the on-failure queue.`,
      );
    }
    alarm(
      'FailureQueueDepth',
      props.failureQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: Duration.minutes(1) }),
      'A stream batch was given up on and is listed on the on-failure queue: fix the cause, then npm run admin -- --stack <name> replay.',
    );
    alarm('Api5xx', props.api.metricServerError({ statistic: 'Sum', period }), 'The API answered 5xx.');
  }
}
