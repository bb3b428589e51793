/**
 * Which stack the admin command line works on, and its back office there:
 * the local stack (found through `<data dir>/stack.json`, written by
 * `npm start`) or a deployed stack (found through its CloudFormation outputs).
 */
import type { CampaignResultsPorts } from '../../functions/back-office/campaign-results';
import { DynamoCampaignResults } from '../../functions/adapters/dynamo-campaign-results';
import { DynamoAuditLog } from '../../functions/adapters/dynamo-audit-log';
import { DynamoEnterpriseUserStore } from '../../functions/adapters/dynamo-enterprise-user-store';
import { DynamoOneTimeTokenStore } from '../../functions/adapters/dynamo-one-time-token-store';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { KinesisClient } from '@aws-sdk/client-kinesis';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoAffiliateStore } from '../../functions/adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../../functions/adapters/dynamo-app-store';
import { DynamoChannelStore } from '../../functions/adapters/dynamo-channel-store';
import { DynamoKeyStore } from '../../functions/adapters/dynamo-key-store';
import { DynamoLinkStore } from '../../functions/adapters/dynamo-link-store';
import { DynamoPlanStore } from '../../functions/adapters/dynamo-plan-store';
import { DynamoPayoutStore, DynamoStatementStore } from '../../functions/adapters/dynamo-statement-store';
import { DynamoTimelineStore } from '../../functions/adapters/dynamo-timeline-store';
import { DynamoFiguresStore } from '../../functions/adapters/dynamo-figures-store';
import { DynamoSentCounts } from '../../functions/adapters/dynamo-send-gate';
import { DynamoFunnelStore } from '../../functions/adapters/dynamo-funnel-store';
import { DynamoPlayerDirectory } from '../../functions/adapters/dynamo-player-directory';
import { DynamoPlayerSearch } from '../../functions/adapters/dynamo-player-search';
import { DynamoProfileStore } from '../../functions/adapters/dynamo-profile-store';
import { DynamoRejectionLog } from '../../functions/adapters/dynamo-rejection-log';
import { DynamoSenderStore } from '../../functions/adapters/dynamo-sender-store';
import { DynamoPostbackOutbox, DynamoPostbackSettings } from '../../functions/adapters/dynamo-postback-store';
import { DynamoSegmentStore } from '../../functions/adapters/dynamo-segment-store';
import { DynamoBroadcastStore } from '../../functions/adapters/dynamo-broadcast-store';
import { DynamoTemplateStore } from '../../functions/adapters/dynamo-template-store';
import type { BroadcastPorts } from '../../functions/back-office/broadcasts';
import { KinesisRecordReader } from '../../functions/adapters/kinesis-record-reader';
import { LambdaConsumerInvoker } from '../../functions/adapters/lambda-consumer-invoker';
import { SqsFailureList } from '../../functions/adapters/sqs-failure-list';
import { SsmSecretStore } from '../../functions/adapters/ssm-secret-store';
import type { BackOffice } from '../../functions/back-office/ports';
import { postbackHostList } from '../../functions/domain/postbacks';
import type { ReplayPorts } from '../../functions/back-office/replay';
import type { SegmentPorts } from '../../functions/back-office/segments';
import type { PreviewPorts, TemplatePorts } from '../../functions/back-office/templates';
import { streamConsumers } from '../../functions/manifest/operations';
import { tableOutputName, tables } from '../../functions/manifest/resources';
import { secretsPrefixOutput } from '../../functions/manifest/secrets';
import { failureOutputs } from '../aws/replay-outputs';
import { localReplayPorts } from '../local/replay';
import { localBackOffice, localClients, localPostbackHosts, type LocalEndpoints } from '../local/stack';
import { DynamoJourneyStore } from '../../functions/adapters/dynamo-journey-store';
import type { JourneyPorts } from '../../functions/back-office/journeys';

/** The stack to work on cannot be found or reached; the message says what to do. */
export class TargetError extends Error {}

export interface Target {
  /** A deployed stack's name; without it, the local stack. */
  stack?: string;
  region?: string;
  /** The local stack's data directory. */
  dataDir: string;
}

export async function backOfficeOf(target: Target): Promise<BackOffice> {
  return target.stack ? deployedBackOffice(target.stack, target.region) : localBackOfficeIn(target.dataDir);
}

/** The target's {base_url}: the local stack's origin, or a deployed stack's API stage URL (its BaseUrl output). */
export async function baseUrlOf(target: Target): Promise<string> {
  if (!target.stack) return (await runningLocalStack(target.dataDir)).base_url;
  const baseUrl = (await stackOutputsOf(target.stack, target.region)).get('BaseUrl');
  if (!baseUrl) throw new TargetError(`Stack ${target.stack} has no output BaseUrl; is it a urm stack?`);
  return baseUrl;
}

/** What replay works with on the target: its on-failure destination, its stream, its consumers. `root`: where the local handler modules are. */
export async function replayPortsOf(target: Target, root: string): Promise<ReplayPorts> {
  if (!target.stack) return localReplayPorts(root, target.dataDir, await runningLocalStack(target.dataDir));
  const outputs = await stackOutputsOf(target.stack, target.region);
  const output = (key: string) => {
    const value = outputs.get(key);
    if (!value) throw new TargetError(`Stack ${target.stack} has no output ${key}; deploy the current version first.`);
    return value;
  };
  const region = target.region ?? (await new SQSClient({ region: target.region }).config.region());
  return {
    failures: new SqsFailureList(new SQSClient({ region }), output(failureOutputs.failureQueueUrl)),
    records: new KinesisRecordReader(new KinesisClient({ region }), output(failureOutputs.streamName)),
    invoker: new LambdaConsumerInvoker(new LambdaClient({ region })),
    targets: streamConsumers.map((consumer) => ({ consumer, functionName: output(failureOutputs.consumerFunctions[consumer.id]) })),
    region,
  };
}

async function stackOutputsOf(stackName: string, region?: string): Promise<Map<string | undefined, string | undefined>> {
  const cloudFormation = new CloudFormationClient({ region });
  const out = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
  return new Map((out.Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
}

type TableDefinition = (typeof tables)[keyof typeof tables];

/** A deployed stack's outputs, its tables' names, and a DynamoDB client for them. */
async function deployedTables(stackName: string, region?: string) {
  const outputs = await stackOutputsOf(stackName, region);
  const tableName = (definition: TableDefinition) => {
    const name = outputs.get(tableOutputName(definition));
    if (!name) throw new TargetError(`Stack ${stackName} has no output ${tableOutputName(definition)}; is it a urm stack?`);
    return name;
  };
  return { outputs, tableName, document: DynamoDBDocumentClient.from(new DynamoDBClient({ region })) };
}

/** What the segments' use cases read and write on the target (functions/back-office/segments.ts). */
export async function segmentPortsOf(target: Target): Promise<SegmentPorts> {
  const { document, tableName } = target.stack
    ? await deployedTables(target.stack, target.region)
    : { document: localClients(await runningLocalStack(target.dataDir)).document, tableName: (definition: TableDefinition) => definition.localName };
  return {
    segments: new DynamoSegmentStore(document, tableName(tables.segments)),
    profiles: new DynamoProfileStore(document, tableName(tables.profiles)),
    ledgers: new DynamoFunnelStore(document, tableName(tables.funnel)),
    apps: new DynamoAppStore(document, tableName(tables.apps)),
    audit: new DynamoAuditLog(document, tableName(tables.auditLog)),
  };
}

/** What the broadcasts' use cases read and write on the target (functions/back-office/broadcasts.ts). */
export async function broadcastPortsOf(target: Target): Promise<BroadcastPorts> {
  const { document, tableName } = target.stack
    ? await deployedTables(target.stack, target.region)
    : { document: localClients(await runningLocalStack(target.dataDir)).document, tableName: (definition: TableDefinition) => definition.localName };
  return {
    broadcasts: new DynamoBroadcastStore(document, tableName(tables.campaigns)),
    templates: new DynamoTemplateStore(document, tableName(tables.campaigns)),
    segments: new DynamoSegmentStore(document, tableName(tables.segments)),
    apps: new DynamoAppStore(document, tableName(tables.apps)),
    audit: new DynamoAuditLog(document, tableName(tables.auditLog)),
  };
}

/** What the templates' use cases read and write on the target (functions/back-office/templates.ts). */
export async function templatePortsOf(target: Target): Promise<TemplatePorts & PreviewPorts> {
  const { document, tableName } = target.stack
    ? await deployedTables(target.stack, target.region)
    : { document: localClients(await runningLocalStack(target.dataDir)).document, tableName: (definition: TableDefinition) => definition.localName };
  return {
    templates: new DynamoTemplateStore(document, tableName(tables.campaigns)),
    apps: new DynamoAppStore(document, tableName(tables.apps)),
    profiles: new DynamoProfileStore(document, tableName(tables.profiles)),
    audit: new DynamoAuditLog(document, tableName(tables.auditLog)),
    // The hosts postbacks may call besides public ones: the local stack's, or those a deployed stack was deployed with.
    webhookHosts: postbackHostList(target.stack ? process.env.URM_POSTBACK_HOSTS : localPostbackHosts),
  };
}

/** What a campaign's results read on the target (functions/back-office/campaign-results.ts): the low-level client, for exact money. */
export async function resultsPortsOf(target: Target): Promise<CampaignResultsPorts> {
  if (target.stack) {
    const { document, tableName } = await deployedTables(target.stack, target.region);
    return {
      apps: new DynamoAppStore(document, tableName(tables.apps)),
      results: new DynamoCampaignResults(new DynamoDBClient({ region: target.region }), tableName(tables.campaigns)),
    };
  }
  const { dynamo, document } = localClients(await runningLocalStack(target.dataDir));
  return { apps: new DynamoAppStore(document, tables.apps.localName), results: new DynamoCampaignResults(dynamo, tables.campaigns.localName) };
}

/** The journeys' stores on the target (the campaigns table): the journeys use cases' ports. */
export async function journeyPortsOf(target: Target): Promise<JourneyPorts> {
  const { document, tableName } = target.stack
    ? await deployedTables(target.stack, target.region)
    : { document: localClients(await runningLocalStack(target.dataDir)).document, tableName: (definition: TableDefinition) => definition.localName };
  return {
    journeys: new DynamoJourneyStore(document, tableName(tables.campaigns)),
    templates: new DynamoTemplateStore(document, tableName(tables.campaigns)),
    audit: new DynamoAuditLog(document, tableName(tables.auditLog)),
  };
}

async function deployedBackOffice(stackName: string, region?: string): Promise<BackOffice> {
  const { outputs, tableName, document } = await deployedTables(stackName, region);
  const statements = new DynamoStatementStore(document, tableName(tables.affiliates));
  return {
    apps: new DynamoAppStore(document, tableName(tables.apps)),
    keys: new DynamoKeyStore(document, tableName(tables.keys)),
    rejections: new DynamoRejectionLog(document, tableName(tables.rejections)),
    affiliates: new DynamoAffiliateStore(document, tableName(tables.affiliates)),
    links: new DynamoLinkStore(document, tableName(tables.links)),
    plans: new DynamoPlanStore(document, tableName(tables.affiliates)),
    statements,
    payouts: new DynamoPayoutStore(document, tableName(tables.affiliates)),
    statementLock: statements,
    funnel: new DynamoFunnelStore(document, tableName(tables.funnel)),
    playerCounts: new DynamoFiguresStore(document, tableName(tables.figures)),
    appMoney: new DynamoFunnelStore(document, tableName(tables.funnel)),
    timeline: new DynamoTimelineStore(document, tableName(tables.timeline)),
    channels: new DynamoChannelStore(document, tableName(tables.channels)),
    senders: new DynamoSenderStore(document, tableName(tables.senders)),
    secrets: new SsmSecretStore(new SSMClient({ region }), secretsPrefixOf(stackName, outputs)),
    users: new DynamoEnterpriseUserStore(document, tableName(tables.enterpriseUsers)),
    signInTokens: new DynamoOneTimeTokenStore(document, tableName(tables.signInTokens)),
    audit: new DynamoAuditLog(document, tableName(tables.auditLog)),
    players: {
      directory: new DynamoPlayerDirectory(document, tableName(tables.profiles)),
      profiles: new DynamoProfileStore(document, tableName(tables.profiles)),
      search: new DynamoPlayerSearch(document, tableName(tables.playerSearch)),
      ledgers: new DynamoFunnelStore(document, tableName(tables.funnel)),
      sentCounts: new DynamoSentCounts(document, tableName(tables.sendGate)),
    },
    postbacks: {
      settings: new DynamoPostbackSettings(document, tableName(tables.affiliates)),
      log: new DynamoPostbackOutbox(document, tableName(tables.funnel)),
      // The development hosts the stack was deployed with (URM_POSTBACK_HOSTS, as for `cdk deploy`); none by default.
      allowedHosts: postbackHostList(process.env.URM_POSTBACK_HOSTS),
    },
  };
}

/** The SSM path of a deployed stack's secrets, from its output. */
function secretsPrefixOf(stackName: string, outputs: Map<string | undefined, string | undefined>): string {
  const prefix = outputs.get(secretsPrefixOutput);
  if (!prefix) throw new TargetError(`Stack ${stackName} has no output ${secretsPrefixOutput}; deploy the current version first.`);
  return prefix;
}

async function localBackOfficeIn(dataDir: string): Promise<BackOffice> {
  return localBackOffice(localClients(await runningLocalStack(dataDir)).document);
}

/** The endpoints of the local stack running on `dataDir`; a TargetError when there is none. */
async function runningLocalStack(dataDir: string): Promise<LocalEndpoints> {
  const file = join(dataDir, 'stack.json');
  let endpoints: LocalEndpoints;
  try {
    endpoints = JSON.parse(readFileSync(file, 'utf8')) as LocalEndpoints;
  } catch {
    throw new TargetError(`No local stack found (${file} is missing). Start it with npm start, or pass --stack NAME.`);
  }
  const clients = localClients(endpoints);
  try {
    await clients.dynamo.send(new ListTablesCommand({ Limit: 1 }));
  } catch (error) {
    // The emulators answer only the access key id of the start that wrote stack.json.
    if ((error as Error).name === 'UnrecognizedClientException') {
      throw new TargetError(
        `The local stack at ${endpoints.dynamodb_endpoint} does not take the access key in ${file}: was it started from another data directory?`,
      );
    }
    throw new TargetError(`The local stack is not running (nothing answers at ${endpoints.dynamodb_endpoint}). Start it with npm start.`);
  }
  return endpoints;
}
