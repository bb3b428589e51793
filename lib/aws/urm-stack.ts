/**
 * The urm stack: tables, the ingestion stream with its consumers, and the API.
 * Its outputs are how tools outside CDK (the admin command line, the docs'
 * address placeholders) find the deployed resources.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { httpOperations, routedFunctions, scheduledFunctions, streamConsumers } from '../../functions/manifest/operations';
import { tableOutputName, tables as tableDefinitions, type TableName } from '../../functions/manifest/resources';
import { secretsPrefix, secretsPrefixOutput } from '../../functions/manifest/secrets';
import { Alarms } from './constructs/alarms';
import { UrmDashboard } from './constructs/dashboard';
import { pushEndpointPolicy } from '../../functions/domain/push';
import { postbackHostList } from '../../functions/domain/postbacks';
import { DataTables } from './constructs/data-tables';
import { Email } from './constructs/email';
import { EventFunctions } from './constructs/event-functions';
import { EventPipeline } from './constructs/event-pipeline';
import { apiStageName, IngestionApi } from './constructs/ingestion-api';
import { PushCdn } from './constructs/push-cdn';
import { ScheduledWork } from './constructs/scheduled-work';
import { failureOutputs } from './replay-outputs';
import { suppressAcceptedFindings } from './nag-suppressions';

/** The output keys of the stack (read with CloudFormation DescribeStacks). */
export const stackOutputs = {
  baseUrl: 'BaseUrl',
  crmUrl: 'CrmUrl',
  enterpriseApiUrl: 'EnterpriseApiUrl',
  commsUrl: 'CommsUrl',
  /** {cdn_url}: where sites load js/urm-notification.js and urmSDKWorker.js from. */
  cdnUrl: 'CdnUrl',
  /** The API reference (Swagger UI) on the CDN; the OpenAPI document is {cdn_url}/openapi.json. */
  docsUrl: 'DocsUrl',
  /** The back-office console, {cdn_url}/console/: an application's portal origin is {cdn_url}, so /redirect lands there. */
  consoleUrl: 'ConsoleUrl',
  /** Where the secrets (VAPID private keys) are, in SSM Parameter Store: for the admin command line. */
  secretsPrefix: secretsPrefixOutput,
  ...failureOutputs,
  tables: Object.fromEntries(Object.entries(tableDefinitions).map(([name, definition]) => [name, tableOutputName(definition)])) as Record<TableName, string>,
} as const;

const IP_OR_LOOPBACK = /^(localhost|\d{1,3}(\.\d{1,3}){3}|\[.*\])$/;

/**
 * The push endpoint hosts an operator allows besides the browsers' push
 * services: context `urm:pushEndpointHosts` (comma-separated, or an array),
 * else URM_PUSH_ENDPOINT_HOSTS. Checked at synth: host names or `*.suffix`,
 * never an IP address or the loopback host (in Lambda, the runtime API).
 */
export function pushEndpointHosts(configured: unknown): string | undefined {
  const entries = (Array.isArray(configured) ? configured.map(String) : String(configured ?? '').split(/[\s,]+/)).filter((entry) => entry !== '');
  if (entries.length === 0) return undefined;
  pushEndpointPolicy(entries.join(','));
  const local = entries.find((entry) => IP_OR_LOOPBACK.test(entry.toLowerCase()));
  if (local) throw new Error(`urm:pushEndpointHosts: ${JSON.stringify(local)} is an IP address or the loopback host; name a push service's host`);
  return entries.join(',');
}

/**
 * Development hosts an operator allows postback URLs on besides public https
 * hosts: context `urm:postbackHosts` (comma-separated, or an array), else
 * URM_POSTBACK_HOSTS. Never the loopback host (in Lambda, the runtime API) nor
 * the link-local metadata address.
 */
export function postbackHosts(configured: unknown): string | undefined {
  const entries = postbackHostList(Array.isArray(configured) ? configured.map(String).join(',') : String(configured ?? ''));
  if (entries.length === 0) return undefined;
  const forbidden = entries.find((entry) => /^(localhost|127\.|169\.254\.|\[?::1\]?$|0\.0\.0\.0)/.test(entry));
  if (forbidden) throw new Error(`urm:postbackHosts: ${JSON.stringify(forbidden)} is the loopback host or the metadata address`);
  return entries.join(',');
}

export class UrmStack extends Stack {
  readonly data: DataTables;
  readonly pipeline: EventPipeline;
  readonly ingestion: IngestionApi;
  readonly email: Email;
  readonly pushCdn: PushCdn;
  readonly alarms: Alarms;
  readonly dashboard: UrmDashboard;
  readonly scheduled: ScheduledWork;
  readonly events: EventFunctions;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.data = new DataTables(this, 'Data');
    const pushHosts = pushEndpointHosts(this.node.tryGetContext('urm:pushEndpointHosts') ?? process.env.URM_PUSH_ENDPOINT_HOSTS);
    const devHosts = postbackHosts(this.node.tryGetContext('urm:postbackHosts') ?? process.env.URM_POSTBACK_HOSTS);
    this.pipeline = new EventPipeline(this, 'Pipeline', { tables: this.data.tables, pushEndpointHosts: pushHosts, postbackHosts: devHosts });
    this.ingestion = new IngestionApi(this, 'Ingestion', {
      tables: this.data.tables,
      stream: this.pipeline.stream,
      pushEndpointHosts: pushHosts,
      postbackHosts: devHosts,
    });
    this.scheduled = new ScheduledWork(this, 'Scheduled', {
      tables: this.data.tables,
      stream: this.pipeline.stream,
      pushEndpointHosts: pushHosts,
      postbackHosts: devHosts,
    });
    this.email = new Email(this, 'Email', {
      domain: this.node.tryGetContext('urm:emailDomain') ?? process.env.URM_EMAIL_DOMAIN,
      identities: listSetting(this.node.tryGetContext('urm:emailIdentities') ?? process.env.URM_EMAIL_IDENTITIES),
      senders: [
        ...[...httpOperations, ...routedFunctions]
          .filter((definition) => definition.email === 'send')
          .map((definition) => this.ingestion.operations[definition.id]),
        // The deferred sender sends what the send gate held for quiet hours.
        ...scheduledFunctions.filter((definition) => definition.email === 'send').map((definition) => this.scheduled.functions[definition.id]),
        // The journeys consumer sends a journey's mail as events arrive.
        ...streamConsumers.filter((definition) => definition.email === 'send').map((definition) => this.pipeline.consumers[definition.id]),
      ],
    });
    this.events = new EventFunctions(this, 'Events', {
      tables: this.data.tables,
      stream: this.pipeline.stream,
      configurationSetName: this.email.configurationSet.configurationSetName,
    });

    // One API serves every surface (ingestion, CRM reads, enterprise, comms) for now; each keeps its own output so they can split later.
    const url = this.ingestion.api.url;
    for (const key of [stackOutputs.baseUrl, stackOutputs.crmUrl, stackOutputs.enterpriseApiUrl, stackOutputs.commsUrl]) {
      new CfnOutput(this, key, { value: url });
    }
    new CfnOutput(this, stackOutputs.streamName, { value: this.pipeline.stream.streamName });
    new CfnOutput(this, stackOutputs.failureQueueUrl, { value: this.pipeline.failureQueue.queueUrl });
    for (const consumer of streamConsumers) {
      new CfnOutput(this, stackOutputs.consumerFunctions[consumer.id], { value: this.pipeline.consumers[consumer.id].functionName });
    }
    this.alarms = new Alarms(this, 'Alarms', {
      consumers: this.pipeline.consumers,
      failureQueue: this.pipeline.failureQueue,
      api: this.ingestion.api,
    });
    new CfnOutput(this, stackOutputs.alarmTopicArn, { value: this.alarms.topic.topicArn });
    this.dashboard = new UrmDashboard(this, 'Dashboard', {
      stream: this.pipeline.stream,
      consumers: this.pipeline.consumers,
      tables: this.data.tables,
      api: this.ingestion.api,
    });
    this.pushCdn = new PushCdn(this, 'PushCdn', {
      apiUrl: url,
      apiOrigin: { domainName: `${this.ingestion.api.restApiId}.execute-api.${this.region}.${this.urlSuffix}`, stagePath: `/${apiStageName}` },
    });
    new CfnOutput(this, stackOutputs.cdnUrl, { value: this.pushCdn.url });
    new CfnOutput(this, stackOutputs.docsUrl, { value: this.pushCdn.docsUrl });
    new CfnOutput(this, stackOutputs.consoleUrl, { value: this.pushCdn.consoleUrl });
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
  return String(value)
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
