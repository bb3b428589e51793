/**
 * The urm stack: tables, the ingestion stream with its consumers, and the API.
 * Its outputs are how tools outside CDK (the admin command line, the docs'
 * address placeholders) find the deployed resources.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { tableOutputName, tables as tableDefinitions, type TableName } from './resources';
import { DataTables } from './constructs/data-tables';
import { EventPipeline } from './constructs/event-pipeline';
import { IngestionApi } from './constructs/ingestion-api';

export { tableOutputName };

/** The output keys of the stack (read with CloudFormation DescribeStacks). */
export const stackOutputs = {
  baseUrl: 'BaseUrl',
  crmUrl: 'CrmUrl',
  enterpriseApiUrl: 'EnterpriseApiUrl',
  commsUrl: 'CommsUrl',
  streamName: 'StreamName',
  tables: Object.fromEntries(
    Object.entries(tableDefinitions).map(([name, definition]) => [name, tableOutputName(definition)]),
  ) as Record<TableName, string>,
} as const;

export class UrmStack extends Stack {
  readonly data: DataTables;
  readonly pipeline: EventPipeline;
  readonly ingestion: IngestionApi;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.data = new DataTables(this, 'Data');
    this.pipeline = new EventPipeline(this, 'Pipeline', { tables: this.data.tables });
    this.ingestion = new IngestionApi(this, 'Ingestion', { tables: this.data.tables, stream: this.pipeline.stream });

    // One API serves every surface of the spec for now; each keeps its own output so they can split later.
    const url = this.ingestion.api.url;
    for (const key of [stackOutputs.baseUrl, stackOutputs.crmUrl, stackOutputs.enterpriseApiUrl, stackOutputs.commsUrl]) {
      new CfnOutput(this, key, { value: url });
    }
    new CfnOutput(this, stackOutputs.streamName, { value: this.pipeline.stream.streamName });
    for (const name of Object.keys(tableDefinitions) as TableName[]) {
      new CfnOutput(this, stackOutputs.tables[name], { value: this.data.tables[name].tableName });
    }
  }
}
