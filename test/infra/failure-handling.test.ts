/**
 * What lets an operator recover what the pipeline could not apply (docs/architecture.md, "When the pipeline
 * fails"): the stream keeps its records longer than a consumer tries them, so what the on-failure queue points
 * at can still be read and replayed; the stack names what replay needs; and alarms tell someone.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import type { CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { streamConsumers } from '../../functions/manifest/operations';
import { ingestStream } from '../../functions/manifest/resources';
import { stackOutputs, UrmStack } from '../../lib/aws/urm-stack';
import { testApp } from '../support/cdk';

let stack: UrmStack;
let template: Template;

// No function code is read here: synthesized without bundling.
beforeAll(() => {
  stack = new UrmStack(testApp({ bundle: false }), 'UrmFailureTest');
  template = Template.fromStack(stack);
});

const logicalId = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const ref = (construct: IConstruct) => ({ Ref: logicalId(construct) });
const day = 24 * 60 * 60;

describe('replay from the stream', () => {
  test('the stream keeps its records 7 days', () => {
    expect(ingestStream.retentionDays).toBeGreaterThanOrEqual(7);

    template.hasResourceProperties('AWS::Kinesis::Stream', { RetentionPeriodHours: ingestStream.retentionDays * 24 });
  });

  for (const consumer of streamConsumers) {
    test(`${consumer.id} gives a record up at least a day before the stream drops it, leaving time to replay it`, () => {
      expect(consumer.maxRecordAgeSeconds).toBeLessThanOrEqual(ingestStream.retentionDays * day - day);

      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: ref(stack.pipeline.consumers[consumer.id]),
        MaximumRecordAgeInSeconds: consumer.maxRecordAgeSeconds,
      });
    });

    test(`the name of ${consumer.id}'s function is an output, for replay to invoke it`, () => {
      template.hasOutput(stackOutputs.consumerFunctions[consumer.id], { Value: ref(stack.pipeline.consumers[consumer.id]) });
    });
  }

  test("the on-failure queue's URL is an output, for replay to read it", () => {
    template.hasOutput(stackOutputs.failureQueueUrl, { Value: ref(stack.pipeline.failureQueue) });
  });
});

describe('the alarms', () => {
  const topic = () => ref(stack.alarms.topic);
  const alarmOn = (properties: Record<string, unknown>) => template.hasResourceProperties('AWS::CloudWatch::Alarm', { AlarmActions: [topic()], ...properties });

  test('notify one SNS topic, encrypted with a key CloudWatch may use, TLS only, whose ARN is an output', () => {
    template.resourceCountIs('AWS::SNS::Topic', 1);
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [logicalId(stack.alarms.key), 'Arn'] } });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [topic()],
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
    template.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: Match.arrayWith(['kms:Decrypt', 'kms:GenerateDataKey*']),
          }),
        ]),
      },
    });
    template.hasOutput(stackOutputs.alarmTopicArn, { Value: topic() });
  });

  for (const consumer of streamConsumers) {
    test(`fire when ${consumer.id} falls an hour behind the stream`, () => {
      alarmOn({
        Namespace: 'AWS/Lambda',
        MetricName: 'IteratorAge',
        Dimensions: [{ Name: 'FunctionName', Value: ref(stack.pipeline.consumers[consumer.id]) }],
        Statistic: 'Maximum',
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: 60 * 60 * 1000,
        TreatMissingData: 'notBreaching',
      });
    });

    test(`fire when ${consumer.id} fails an invocation`, () => {
      alarmOn({
        Namespace: 'AWS/Lambda',
        MetricName: 'Errors',
        Dimensions: [{ Name: 'FunctionName', Value: ref(stack.pipeline.consumers[consumer.id]) }],
        Statistic: 'Sum',
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: 0,
        TreatMissingData: 'notBreaching',
      });
    });
  }

  test('fire when the on-failure queue holds a message', () => {
    alarmOn({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId(stack.pipeline.failureQueue), 'QueueName'] } }],
      Statistic: 'Maximum',
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
    });
  });

  test('fire when the API answers a 5xx', () => {
    alarmOn({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5XXError',
      Dimensions: Match.arrayWith([{ Name: 'ApiName', Value: stack.ingestion.api.restApiName }]),
      Statistic: 'Sum',
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      TreatMissingData: 'notBreaching',
    });
  });

  test('are these and no others', () => {
    template.resourceCountIs('AWS::CloudWatch::Alarm', 2 * streamConsumers.length + 2);
  });
});
