/**
 * The urm stack: tables, the ingestion stream with its consumers, and the API.
 * Its outputs are how tools outside CDK (the admin command line, the docs'
 * address placeholders) find the deployed resources.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { httpOperations } from '../../functions/shared/manifest/operations';
import { tableOutputName, tables as tableDefinitions, type TableName } from '../../functions/shared/manifest/resources';
import { secretsPrefix, secretsPrefixOutput } from '../../functions/shared/manifest/secrets';
import { DataTables } from './constructs/data-tables';
import { Email } from './constructs/email';
import { EventPipeline } from './constructs/event-pipeline';
import { IngestionApi } from './constructs/ingestion-api';
import { PushCdn } from './constructs/push-cdn';
import { suppressAcceptedFindings } from './nag-suppressions';

/** The output keys of the stack (read with CloudFormation DescribeStacks). */
export const stackOutputs = {
  baseUrl: 'BaseUrl',
  crmUrl: 'CrmUrl',
  enterpriseApiUrl: 'EnterpriseApiUrl',
  commsUrl: 'CommsUrl',
  streamName: 'StreamName',
  /** {cdn_url}: where sites load js/urm-notification.js and urmSDKWorker.js from. */
  cdnUrl: 'CdnUrl',
  /** The API reference (Swagger UI) on the CDN; the OpenAPI document is {cdn_url}/openapi.json. */
  docsUrl: 'DocsUrl',
  /** Where the secrets (VAPID private keys) are, in SSM Parameter Store: for the admin command line. */
  secretsPrefix: secretsPrefixOutput,
  tables: Object.fromEntries(
    Object.entries(tableDefinitions).map(([name, definition]) => [name, tableOutputName(definition)]),
  ) as Record<TableName, string>,
} as const;

export class UrmStack extends Stack {
  readonly data: DataTables;
  readonly pipeline: EventPipeline;
  readonly ingestion: IngestionApi;
  readonly email: Email;
  readonly pushCdn: PushCdn;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.data = new DataTables(this, 'Data');
    this.pipeline = new EventPipeline(this, 'Pipeline', { tables: this.data.tables });
    this.ingestion = new IngestionApi(this, 'Ingestion', { tables: this.data.tables, stream: this.pipeline.stream });
    this.email = new Email(this, 'Email', {
      domain: this.node.tryGetContext('urm:emailDomain') ?? process.env.URM_EMAIL_DOMAIN,
      identities: listSetting(this.node.tryGetContext('urm:emailIdentities') ?? process.env.URM_EMAIL_IDENTITIES),
      senders: httpOperations.filter((operation) => operation.email === 'send').map((operation) => this.ingestion.operations[operation.id]),
    });

    // One API serves every surface (ingestion, CRM reads, enterprise, comms) for now; each keeps its own output so they can split later.
    const url = this.ingestion.api.url;
    for (const key of [stackOutputs.baseUrl, stackOutputs.crmUrl, stackOutputs.enterpriseApiUrl, stackOutputs.commsUrl]) {
      new CfnOutput(this, key, { value: url });
    }
    new CfnOutput(this, stackOutputs.streamName, { value: this.pipeline.stream.streamName });
    this.pushCdn = new PushCdn(this, 'PushCdn', { apiUrl: url });
    new CfnOutput(this, stackOutputs.cdnUrl, { value: this.pushCdn.url });
    new CfnOutput(this, stackOutputs.docsUrl, { value: this.pushCdn.docsUrl });
    new CfnOutput(this, stackOutputs.secretsPrefix, { value: secretsPrefix(this.stackName) });
    for (const name of Object.keys(tableDefinitions) as TableName[]) {
      new CfnOutput(this, stackOutputs.tables[name], { value: this.data.tables[name].tableName });
    }
    // Last: the suppressions name constructs of the whole stack (cdk-nag's AwsSolutions checks, bin/urm.ts).
    suppressAcceptedFindings(this);
  }
}

/** A comma-separated setting (context or environment) as its trimmed, non-empty items. */
function listSetting(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return String(value).split(',').map((item) => item.trim()).filter((item) => item !== '');
}
