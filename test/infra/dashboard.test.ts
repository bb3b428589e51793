import { beforeAll, describe, expect, test } from '@jest/globals';
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { metricsByService, metricsNamespace } from '../../functions/manifest/metrics';
import { streamConsumers } from '../../functions/manifest/operations';
import { tables, type TableName } from '../../functions/manifest/resources';
import { UrmStack } from '../../lib/aws/urm-stack';
import { testApp } from '../support/cdk';

interface Widget {
  type: string;
  properties: { title?: string; metrics?: unknown[][] };
}

let stack: UrmStack;
let widgets: Widget[];

// No bundling: the dashboard reads no function code.
beforeAll(() => {
  stack = new UrmStack(testApp({ bundle: false }), 'UrmDashboardTest');
  const dashboards = Object.values(Template.fromStack(stack).findResources('AWS::CloudWatch::Dashboard'));
  expect(dashboards).toHaveLength(1);
  // The body is a Fn::Join of JSON text and references: each reference becomes `{Ref:<logical id>}` inside its string.
  const parts = dashboards[0].Properties.DashboardBody['Fn::Join'][1] as unknown[];
  const body = parts.map((part) => (typeof part === 'string' ? part : `{Ref:${(part as { Ref: string }).Ref}}`)).join('');
  widgets = (JSON.parse(body) as { widgets: Widget[] }).widgets;
});

const logicalId = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
/** Every metric of every graph, as namespace, name and dimensions (the trailing options object left out). */
const graphed = () => widgets.flatMap((widget) => widget.properties.metrics ?? []).map((metric) => metric.filter((part) => typeof part === 'string').join(' '));

describe('the dashboard', () => {
  test('graphs every metric the service emits, one line per function, with the function as the only dimension', () => {
    const expected = Object.entries(metricsByService).flatMap(([service, names]) => names.map((name) => `${metricsNamespace} ${name} service ${service}`));

    const ours = graphed().filter((metric) => metric.startsWith(`${metricsNamespace} `));

    expect(ours.sort()).toEqual(expected.sort());
  });

  test("graphs the stream's incoming and throttled records and each consumer's iterator age, errors and duration", () => {
    const stream = `StreamName {Ref:${logicalId(stack.pipeline.stream)}}`;
    const metrics = graphed();

    expect(metrics).toEqual(expect.arrayContaining([`AWS/Kinesis IncomingRecords ${stream}`, `AWS/Kinesis PutRecords.ThrottledRecords ${stream}`]));
    for (const consumer of streamConsumers) {
      const fn = `FunctionName {Ref:${logicalId(stack.pipeline.consumers[consumer.id])}}`;
      expect(metrics).toEqual(
        expect.arrayContaining(['IteratorAge', 'Errors', 'Throttles', 'Duration', 'ConcurrentExecutions'].map((name) => `AWS/Lambda ${name} ${fn}`)),
      );
    }
  });

  test('graphs consumed write and read units and throttled requests of every table', () => {
    const metrics = graphed();

    for (const name of Object.keys(tables) as TableName[]) {
      const table = `TableName {Ref:${logicalId(stack.data.tables[name])}}`;
      expect(metrics).toEqual(
        expect.arrayContaining(
          ['ConsumedWriteCapacityUnits', 'ConsumedReadCapacityUnits', 'WriteThrottleEvents', 'ReadThrottleEvents'].map(
            (metric) => `AWS/DynamoDB ${metric} ${table}`,
          ),
        ),
      );
    }
  });

  test("graphs the API's 4xx and 5xx answers and its latency", () => {
    const api = graphed().filter((metric) => metric.startsWith('AWS/ApiGateway '));

    expect(api.map((metric) => metric.split(' ')[1])).toEqual(expect.arrayContaining(['4XXError', '5XXError', 'Count', 'Latency', 'IntegrationLatency']));
    expect(api.every((metric) => metric.includes(`ApiName UrmApi`))).toBe(true);
  });
});
