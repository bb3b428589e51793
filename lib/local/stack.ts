/**
 * The whole service on one machine: DynamoDB Local and kinesalite under the
 * data directory, tables and stream from functions/manifest/resources.ts, the HTTP routes and
 * stream consumers of functions/manifest/operations.ts running their real handler modules
 * (or, with `bundled`, the very bundles `cdk synth` stages: bundles.ts), and the demo application. Only endpoints and credentials differ from AWS.
 */
import { DynamoAuditLog } from '../../functions/adapters/dynamo-audit-log';
import { DynamoEnterpriseUserStore } from '../../functions/adapters/dynamo-enterprise-user-store';
import { DynamoOneTimeTokenStore } from '../../functions/adapters/dynamo-one-time-token-store';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { KinesisClient } from '@aws-sdk/client-kinesis';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
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
import { DynamoSecretStore } from '../../functions/adapters/dynamo-secret-store';
import { DynamoSenderStore } from '../../functions/adapters/dynamo-sender-store';
import { DynamoPostbackOutbox, DynamoPostbackSettings } from '../../functions/adapters/dynamo-postback-store';
import { ensureSdkBuilt } from '../../web-sdk/build';
import { ensureConsoleBuilt } from '../console/build';
import {
  eventFunctions,
  httpOperations,
  routedFunctions,
  scheduledFunctions,
  streamConsumers,
  type FunctionDefinition,
} from '../../functions/manifest/operations';
import { ingestStream, postbackSending, pushSending, tables } from '../../functions/manifest/resources';
import { postbackHostList } from '../../functions/domain/postbacks';
import type { BackOffice } from '../../functions/back-office/ports';
import { localSecretsTable, secretsEnv } from '../../functions/manifest/secrets';
import { consoleStatics } from './console';
import { apiDocsStatics, loadApiDocs } from './api-docs';
import { ensureStream, ensureTables } from './bootstrap';
import { sourceHandlers, type HandlerLoader } from './handlers';
import { ensureDemoApp, type DevConfig } from './demo-app';
import { assertJava, assertPortFree, LocalStackError, newAccessKeyId, startDynamoLocal, startKinesalite, type RunningProcess } from './emulators';
import { startAwsEvents, type EventBinding, type EventHandler } from './aws-events';
import { scopeInvocations } from './invocation';
import { startSchedules, type ScheduleBinding, type ScheduledHandler } from './schedules';
import { createApiServer, loadRoutes } from './server';
import { startSesLocal } from './ses-local';
import { reportRequests, type AnsweredRequest } from './terminal-log';
import { ensureDemoWebPush, webPushStatics } from './web-push';
import { clockStatics } from './clock';
import { FileCheckpointStore } from './stream-poller/checkpoints';
import { fileFailureSink } from './stream-poller/on-failure';
import { StreamPoller, type ConsumerBinding, type ConsumerHandler } from './stream-poller/poller';

export interface LocalStackOptions {
  /** Repository root, where the handler modules are. */
  root: string;
  dataDir: string;
  host: string;
  port: number;
  dynamoPort: number;
  kinesisPort: number;
  /** The local SES v2 (aws-ses-v2-local); default: port + 3. */
  sesPort?: number;
  region: string;
  log: (line: string) => void;
  pollIntervalMs?: number;
  /** How often the scheduled functions (the postback sender) run; every minute in AWS. Default: 1 s. */
  scheduleIntervalMs?: number;
  /** Run each function's bundle as `cdk synth` stages it (bundles.ts) instead of its TypeScript source. */
  bundled?: boolean;
  /** Told of each request the API answers: `npm start` prints one line per request. */
  onRequest?: (request: AnsweredRequest) => void;
}

export interface LocalStack {
  baseUrl: string;
  dev: DevConfig;
  demoCreated: boolean;
  /** Files an operator reads: the on-failure destination of the stream consumers. */
  onFailureFile: string;
  /** Where the emulators are, and the access key id they answer (as in stack.json). */
  endpoints: LocalEndpoints;
  stop(): Promise<void>;
}

/** Where the admin command line finds a running local stack. */
export interface LocalEndpoints {
  dynamodb_endpoint: string;
  kinesis_endpoint: string;
  region: string;
  base_url: string;
  /** The local SES v2, for handlers run outside the stack's process (replay). */
  ses_endpoint?: string;
  /** The only access key id the emulators answer: new at each start, so stack.json is kept from other users (mode 0600). */
  access_key_id: string;
}

/** The credentials the emulators answer: the access key id is the secret (its secret key is never checked). */
export function localCredentials(endpoints: Pick<LocalEndpoints, 'access_key_id'>) {
  return { accessKeyId: endpoints.access_key_id, secretAccessKey: 'local' };
}

export function localClients(endpoints: Pick<LocalEndpoints, 'dynamodb_endpoint' | 'kinesis_endpoint' | 'region' | 'access_key_id'>) {
  // Bounded requests: an emulator that accepts a connection and never answers must not hang the stack.
  const requestHandler = () => new NodeHttpHandler({ connectionTimeout: 2000, requestTimeout: 10_000 });
  const dynamo = new DynamoDBClient({
    endpoint: endpoints.dynamodb_endpoint,
    region: endpoints.region,
    credentials: localCredentials(endpoints),
    requestHandler: requestHandler(),
  });
  const kinesis = new KinesisClient({
    endpoint: endpoints.kinesis_endpoint,
    region: endpoints.region,
    credentials: localCredentials(endpoints),
    requestHandler: requestHandler(),
  });
  return { dynamo, document: DynamoDBDocumentClient.from(dynamo), kinesis };
}

export function localBackOffice(document: DynamoDBDocumentClient): BackOffice {
  const statements = new DynamoStatementStore(document, tables.affiliates.localName);
  return {
    apps: new DynamoAppStore(document, tables.apps.localName),
    keys: new DynamoKeyStore(document, tables.keys.localName),
    rejections: new DynamoRejectionLog(document, tables.rejections.localName),
    affiliates: new DynamoAffiliateStore(document, tables.affiliates.localName),
    links: new DynamoLinkStore(document, tables.links.localName),
    plans: new DynamoPlanStore(document, tables.affiliates.localName),
    statements,
    payouts: new DynamoPayoutStore(document, tables.affiliates.localName),
    statementLock: statements,
    funnel: new DynamoFunnelStore(document, tables.funnel.localName),
    playerCounts: new DynamoFiguresStore(document, tables.figures.localName),
    appMoney: new DynamoFunnelStore(document, tables.funnel.localName),
    timeline: new DynamoTimelineStore(document, tables.timeline.localName),
    channels: new DynamoChannelStore(document, tables.channels.localName),
    senders: new DynamoSenderStore(document, tables.senders.localName),
    secrets: new DynamoSecretStore(document, localSecretsTable.localName),
    users: new DynamoEnterpriseUserStore(document, tables.enterpriseUsers.localName),
    signInTokens: new DynamoOneTimeTokenStore(document, tables.signInTokens.localName),
    audit: new DynamoAuditLog(document, tables.auditLog.localName),
    players: {
      directory: new DynamoPlayerDirectory(document, tables.profiles.localName),
      profiles: new DynamoProfileStore(document, tables.profiles.localName),
      search: new DynamoPlayerSearch(document, tables.playerSearch.localName),
      ledgers: new DynamoFunnelStore(document, tables.funnel.localName),
      sentCounts: new DynamoSentCounts(document, tables.sendGate.localName),
    },
    postbacks: {
      settings: new DynamoPostbackSettings(document, tables.affiliates.localName),
      log: new DynamoPostbackOutbox(document, tables.funnel.localName),
      allowedHosts: postbackHostList(localPostbackHosts),
    },
  };
}

/** Where the tests' postback receivers run: plain HTTP on this machine, allowed in the local stack only. */
export const localPostbackHosts = '127.0.0.1';

/** Where the local push service runs: allowed besides the browsers' push services (plain HTTP on a loopback host). */
export const localPushEndpointHosts = 'localhost,127.0.0.1';

/** The environment a Lambda function would get from the stack, pointed at the emulators. */
export function functionEnvironment(endpoints: LocalEndpoints, sesEndpoint = endpoints.ses_endpoint ?? ''): Record<string, string> {
  return {
    AWS_REGION: endpoints.region,
    AWS_ACCESS_KEY_ID: localCredentials(endpoints).accessKeyId,
    AWS_SECRET_ACCESS_KEY: localCredentials(endpoints).secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb_endpoint,
    AWS_ENDPOINT_URL_KINESIS: endpoints.kinesis_endpoint,
    // The SDK's name for SES v2 (service id "SESv2"): AWS_ENDPOINT_URL_ + the id upper-cased.
    AWS_ENDPOINT_URL_SESV2: sesEndpoint,
    ...Object.fromEntries(Object.values(tables).map((table) => [table.envVar, table.localName])),
    [ingestStream.envVar]: ingestStream.localName,
    // No SSM locally: secrets come from a DynamoDB table (functions/manifest/secrets.ts).
    [secretsEnv.backend]: 'dynamodb',
    [secretsEnv.table]: localSecretsTable.localName,
    // The local push service (web-push-testing, for npm start and the tests) is plain HTTP on this machine.
    [pushSending.endpointHostsEnvVar]: localPushEndpointHosts,
    [postbackSending.allowedHostsEnvVar]: localPostbackHosts,
    // Metrics are counted but not printed (one JSON line per request would bury the log); `POWERTOOLS_METRICS_DISABLED=false npm start` shows them.
    POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED ?? 'true',
  };
}

/** The bundles, staged (or found staged) before anything imports one; aws-cdk-lib is loaded only for this. */
async function bundledLoader(options: LocalStackOptions, functions: FunctionDefinition[]): Promise<HandlerLoader> {
  const started = Date.now();
  const { bundledHandlers } = await import('./bundles');
  const load = bundledHandlers(options.root, functions);
  options.log(`running the bundles cdk synth stages (${functions.length} functions, ready in ${Date.now() - started} ms)`);
  return load;
}

/**
 * Makes the data directory its owner's alone (mode 0700), made or found: it
 * holds the databases (the secrets table included), stack.json with the
 * emulators' access key id, and dev.json with the demo keys.
 */
export function privateDirectory(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
}

async function waitForDynamo(client: DynamoDBClient, dynamo: RunningProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      return;
    } catch (error) {
      if (dynamo.exited() || Date.now() > deadline) {
        throw new LocalStackError(`DynamoDB Local did not start: ${(error as Error).message}\n${dynamo.diagnostics()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  // First, before any AWS SDK call: concurrent requests keep their own logging context, as in Lambda.
  if (!(await scopeInvocations())) options.log('invocations share one logging context: the InvokeStore was made before the stack started');
  assertJava();
  await assertPortFree(options.port, options.host, 'the API', 'PORT');
  await assertPortFree(options.dynamoPort, options.host, 'DynamoDB Local', 'DYNAMODB_PORT');
  await assertPortFree(options.kinesisPort, options.host, 'the Kinesis emulator', 'KINESIS_PORT');
  const sesPort = options.sesPort ?? options.port + 3;
  await assertPortFree(sesPort, options.host, 'the local SES', 'SES_PORT');
  privateDirectory(options.dataDir);

  const baseUrl = `http://${options.host}:${options.port}`;
  const endpoints: LocalEndpoints = {
    dynamodb_endpoint: `http://${options.host}:${options.dynamoPort}`,
    kinesis_endpoint: `http://${options.host}:${options.kinesisPort}`,
    region: options.region,
    base_url: baseUrl,
    access_key_id: newAccessKeyId(),
  };
  // Before anything starts: an invalid API reference stops the stack with the validator's message.
  const apiDocs = await loadApiDocs(baseUrl);
  const stoppers: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const stopOne of stoppers.reverse()) await stopOne().catch((error) => options.log(`while stopping: ${error}`));
    stoppers.length = 0;
  };

  try {
    const dynamoProcess = await startDynamoLocal({
      port: options.dynamoPort,
      host: options.host,
      dataDir: join(options.dataDir, 'dynamodb'),
      accessKeyId: endpoints.access_key_id,
    });
    stoppers.push(() => dynamoProcess.stop());
    if (dynamoProcess.warning) options.log(dynamoProcess.warning);
    const kinesalite = await startKinesalite({
      port: options.kinesisPort,
      host: options.host,
      dataDir: join(options.dataDir, 'kinesis'),
      accessKeyId: endpoints.access_key_id,
    });
    stoppers.push(() => kinesalite.stop());
    const ses = await startSesLocal({ port: sesPort, host: options.host, region: options.region, log: options.log });
    stoppers.push(() => ses.stop());

    const clients = localClients(endpoints);
    await waitForDynamo(clients.dynamo, dynamoProcess);
    await ensureTables(clients.dynamo);
    await ensureTables(clients.dynamo, [localSecretsTable]);
    await ensureStream(clients.kinesis, ingestStream);

    const demo = await ensureDemoApp(localBackOffice(clients.document), join(options.dataDir, 'dev.json'), baseUrl, ses.url);
    await ensureDemoWebPush(localBackOffice(clients.document), demo.config.app_id, baseUrl);
    const stackFile = join(options.dataDir, 'stack.json');
    writeFileSync(stackFile, `${JSON.stringify({ ...endpoints, ses_endpoint: ses.url }, null, 2)}\n`, { mode: 0o600 });
    chmodSync(stackFile, 0o600);
    // The web push SDK, served below, built when missing or older than its sources (esbuild: well under a second).
    ensureSdkBuilt(options.log);
    // The back-office console, served below under /console/, likewise.
    ensureConsoleBuilt(options.log);

    const functions = [...httpOperations, ...routedFunctions, ...streamConsumers, ...scheduledFunctions, ...eventFunctions];
    const load = options.bundled ? await bundledLoader(options, functions) : sourceHandlers(options.root);
    // The handlers read their environment when first imported, as at a cold start.
    Object.assign(process.env, functionEnvironment(endpoints, ses.url));
    const routes = await loadRoutes(httpOperations, routedFunctions, load);
    const server: Server = createApiServer(routes, {
      log: options.log,
      statics: [
        webPushStatics({ dev: demo.config, baseUrl, log: options.log, secrets: localBackOffice(clients.document).secrets }),
        apiDocsStatics(apiDocs, options.log),
        consoleStatics(options.log),
        clockStatics(),
      ],
    });
    if (options.onRequest) reportRequests(server, options.onRequest);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => resolve());
    });
    stoppers.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );

    const bindings: ConsumerBinding[] = await Promise.all(
      streamConsumers.map(async (consumer) => ({
        consumer,
        handler: (await load(consumer)) as ConsumerHandler,
      })),
    );
    const checkpoints = new FileCheckpointStore(join(options.dataDir, 'checkpoints.json'));
    await checkpoints.load();
    const onFailureFile = join(options.dataDir, 'on-failure.jsonl');
    const poller = new StreamPoller(clients.kinesis, bindings, checkpoints, fileFailureSink(onFailureFile), {
      streamName: ingestStream.localName,
      region: options.region,
      pollIntervalMs: options.pollIntervalMs ?? 100,
      // Told of every put (below), the pollers need not poll an idle stream ten times a second.
      idlePollMs: 1000,
      retryBaseDelayMs: 100,
      retryMaxDelayMs: 5000,
      log: options.log,
    });
    kinesalite.onRecordsPut(() => poller.recordsPut());
    await poller.start();
    stoppers.push(() => poller.stop());

    const schedules: ScheduleBinding[] = [];
    for (const definition of scheduledFunctions) {
      schedules.push({ definition, handler: (await load(definition)) as ScheduledHandler });
    }
    stoppers.push(startSchedules(schedules, { intervalMs: options.scheduleIntervalMs ?? 1000, region: options.region, log: options.log }));

    // SES's events of sent mail, to the functions its EventBridge rule targets in AWS.
    const eventBindings: EventBinding[] = [];
    for (const definition of eventFunctions) {
      eventBindings.push({ definition, handler: (await load(definition)) as EventHandler });
    }
    const awsEvents = startAwsEvents(eventBindings, { log: options.log });
    ses.publishTo((events) => awsEvents.publish(events));
    stoppers.push(() => awsEvents.stop());

    return { baseUrl, dev: demo.config, demoCreated: demo.created, onFailureFile, endpoints: { ...endpoints, ses_endpoint: ses.url }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
