/**
 * The one CloudWatch dashboard: the flow of records (ingested, applied,
 * rejected) and of sends from the service's own metrics
 * (functions/manifest/metrics.ts), then what carries them: the stream,
 * the consumers, the tables, the API. Read with docs/performance.md's capacity
 * table: each row there names the graph here that shows the limit coming.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Dashboard, GraphWidget, Metric, Stats, TextWidget, type IMetric, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IStream } from 'aws-cdk-lib/aws-kinesis';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { metricNames, metricsByService, metricsNamespace, type MetricName } from '../../../functions/manifest/metrics';
import { tables as tableDefinitions, type TableName } from '../../../functions/manifest/resources';

export interface DashboardProps {
  stream: IStream;
  /** Stream consumers by their id in functions/manifest/operations.ts. */
  consumers: Record<string, IFunction>;
  tables: Record<TableName, ITable>;
  api: RestApi;
}

/** One minute: the resolution of the embedded metrics, and what a per-second rate is read from (Sum ÷ 60). */
const period = Duration.minutes(1);
const WIDTH = 24;
const HALF = WIDTH / 2;
const THIRD = WIDTH / 3;
const HEIGHT = 6;

/** The service's metric `name` as every function that emits it reports it (one line per function). */
export function serviceMetrics(name: MetricName): Metric[] {
  return Object.entries(metricsByService)
    .filter(([, names]) => (names as readonly MetricName[]).includes(name))
    .map(
      ([service]) =>
        new Metric({ namespace: metricsNamespace, metricName: name, dimensionsMap: { service }, statistic: Stats.SUM, period, label: `${service} ${name}` }),
    );
}

export class UrmDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: DashboardProps) {
    super(scope, id);
    const graph = (title: string, left: IMetric[], width = HALF, right: IMetric[] = []) =>
      new GraphWidget({ title, left, right, width, height: HEIGHT, period });
    const consumers = Object.entries(props.consumers);
    const tables = Object.entries(props.tables) as [TableName, ITable][];
    const tableMetric = (metricName: string) =>
      tables.map(([name, table]) => table.metric(metricName, { statistic: Stats.SUM, period, label: tableDefinitions[name].id }));

    const rows: IWidget[][] = [
      [
        new TextWidget({
          markdown:
            '# urm\nRecords per minute (Sum). Ingested: on the stream after POST /profiles and /events. Applied / duplicates / rejected: ' +
            'what the consumers did with them (rejected also counts every record of a body that failed validation). ' +
            'Capacity: docs/performance.md, "Toward internet scale".',
          width: WIDTH,
          height: 2,
        }),
      ],
      [
        graph('Records ingested', [...serviceMetrics(metricNames.recordsIngested), ...serviceMetrics(metricNames.recordsNotIngested)], THIRD),
        graph(
          'Records applied by the consumers',
          [
            ...serviceMetrics(metricNames.recordsApplied),
            ...serviceMetrics(metricNames.duplicatesSkipped),
            ...serviceMetrics(metricNames.recordsDroppedAfterDelete),
          ],
          THIRD,
        ),
        graph('Records rejected (validation, apply time)', serviceMetrics(metricNames.recordsRejected), THIRD),
      ],
      [
        graph('Email', [...serviceMetrics(metricNames.emailsSent), ...serviceMetrics(metricNames.emailsFailed)]),
        graph('Web push (per device)', [
          ...serviceMetrics(metricNames.pushSent),
          ...serviceMetrics(metricNames.pushFailed),
          ...serviceMetrics(metricNames.pushExpired),
        ]),
      ],
      [
        graph(
          'Stream: incoming records, and those refused for throughput',
          [
            props.stream.metricIncomingRecords({ statistic: Stats.SUM, period }),
            props.stream.metricPutRecordsThrottledRecords({ statistic: Stats.SUM, period }),
          ],
          HALF,
          [props.stream.metricIncomingBytes({ statistic: Stats.SUM, period })],
        ),
        graph(
          'Consumers: iterator age (ms, max), how far behind the stream',
          consumers.map(([consumerId, fn]) => fn.metric('IteratorAge', { statistic: Stats.MAXIMUM, period, label: consumerId })),
        ),
      ],
      [
        graph(
          'Consumers: errors and throttles',
          consumers.flatMap(([consumerId, fn]) => [
            fn.metricErrors({ statistic: Stats.SUM, period, label: `${consumerId} errors` }),
            fn.metricThrottles({ statistic: Stats.SUM, period, label: `${consumerId} throttles` }),
          ]),
        ),
        graph(
          'Consumers: duration (ms, p50 and max) and concurrency',
          consumers.flatMap(([consumerId, fn]) => [
            fn.metricDuration({ statistic: Stats.p(50), period, label: `${consumerId} p50` }),
            fn.metricDuration({ statistic: Stats.MAXIMUM, period, label: `${consumerId} max` }),
          ]),
          HALF,
          consumers.map(([consumerId, fn]) => fn.metric('ConcurrentExecutions', { statistic: Stats.MAXIMUM, period, label: `${consumerId} concurrency` })),
        ),
      ],
      [
        graph('DynamoDB: consumed write units per table', tableMetric('ConsumedWriteCapacityUnits'), THIRD),
        graph('DynamoDB: consumed read units per table', tableMetric('ConsumedReadCapacityUnits'), THIRD),
        graph('DynamoDB: throttled writes and reads per table', [...tableMetric('WriteThrottleEvents'), ...tableMetric('ReadThrottleEvents')], THIRD),
      ],
      [
        graph(
          'API: 4xx and 5xx answers',
          [
            props.api.metricClientError({ statistic: Stats.SUM, period, label: '4xx' }),
            props.api.metricServerError({ statistic: Stats.SUM, period, label: '5xx' }),
          ],
          HALF,
          [props.api.metricCount({ statistic: Stats.SUM, period, label: 'requests' })],
        ),
        graph('API: latency (ms)', [
          props.api.metricLatency({ statistic: Stats.p(50), period, label: 'p50' }),
          props.api.metricLatency({ statistic: Stats.p(99), period, label: 'p99' }),
          props.api.metricIntegrationLatency({ statistic: Stats.p(99), period, label: 'p99 in the function' }),
        ]),
      ],
    ];

    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: Stack.of(this).stackName, widgets: rows });
  }
}
