/**
 * Dependency fault: DynamoDB goes away while the consumers are applying a
 * stream, and comes back on the same data. The consumers run as the local
 * stack runs them (the real handler modules behind the event-source-mapping
 * emulator, lib/local/stream-poller.ts) against a DynamoDB Local and a
 * kinesalite of this test's own, while a producer keeps writing (1,750
 * records: a backlog, more during the outage, a few after). Every
 * record must end up applied exactly once, and none may reach the on-failure
 * destination.
 */
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { KinesisClient, PutRecordsCommand } from '@aws-sdk/client-kinesis';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { toStreamEntries } from '../../functions/domain/ingest';
import { ensureStream, ensureTables } from '../../lib/local/bootstrap';
import { startDynamoLocal, startKinesalite, type RunningProcess } from '../../lib/local/emulators';
import { StreamReceipts } from '../support/stream-drain';
import { FileCheckpointStore } from '../../lib/local/stream-poller/checkpoints';
import { fileFailureSink } from '../../lib/local/stream-poller/on-failure';
import { StreamPoller, type ConsumerHandler } from '../../lib/local/stream-poller/poller';
import { streamConsumers } from '../../functions/manifest/operations';
import { ingestStream, tables } from '../../functions/manifest/resources';
import { deliveryCounts, formatCounts, type Expected } from '../support/delivery-counts';
import { freePort } from '../support/ports';
import { entriesOf, type TimelinePageItem } from '../../functions/domain/timeline-pages';
import { localSecretsTable, secretsEnv } from '../../functions/manifest/secrets';

const PROFILES = 20;
const APP = 'app_fault';
const dataDir = mkdtempSync(join(tmpdir(), 'urm-dynamo-restart-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

async function dynamoUp(client: DynamoDBClient, dynamo: RunningProcess): Promise<void> {
  for (const deadline = Date.now() + 60_000; ; ) {
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`DynamoDB Local did not start: ${(error as Error).message}\n${dynamo.diagnostics()}`);
      await sleep(100);
    }
  }
}

describe('DynamoDB stopped and restarted while the consumers run', () => {
  test('loses nothing and applies nothing twice', async () => {
    const t0 = Date.now();
    const phase = (name: string) => process.env.URM_TEST_VERBOSE && console.log(`${name} at ${Date.now() - t0} ms`);
    const [dynamoPort, kinesisPort] = [await freePort(), await freePort()];
    const dynamoEndpoint = `http://127.0.0.1:${dynamoPort}`;
    const dynamoDir = join(dataDir, 'dynamodb');
    let dynamoProcess = await startDynamoLocal({ port: dynamoPort, dataDir: dynamoDir, accessKeyId: credentials.accessKeyId });
    cleanups.push(() => dynamoProcess.stop());
    const kinesalite = await startKinesalite({ port: kinesisPort, host: '127.0.0.1', dataDir: join(dataDir, 'kinesis'), accessKeyId: credentials.accessKeyId });
    cleanups.push(() => kinesalite.stop());
    const handler = () => new NodeHttpHandler({ connectionTimeout: 2000, requestTimeout: 10_000 });
    const admin = new DynamoDBClient({ endpoint: dynamoEndpoint, region: 'us-east-1', credentials, requestHandler: handler() });
    const reader = DynamoDBDocumentClient.from(admin);
    const kinesis = new KinesisClient({ endpoint: `http://127.0.0.1:${kinesisPort}`, region: 'us-east-1', credentials, requestHandler: handler() });
    await dynamoUp(admin, dynamoProcess);
    await ensureTables(admin);
    await ensureStream(kinesis, ingestStream);

    // The consumers, as Lambda loads them, pointed at this test's emulators.
    Object.assign(process.env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint,
      // The profile consumer continues long timeline work through the stream.
      AWS_ENDPOINT_URL_KINESIS: `http://127.0.0.1:${kinesisPort}`,
      [ingestStream.envVar]: ingestStream.localName,
      // The faults are injected on purpose: their error logs would only bury the counts.
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      ...Object.fromEntries(Object.values(tables).map((t) => [t.envVar, t.localName])),
      // The journeys' consumer sends: its secrets (unsubscribe, VAPID, webhook keys) in the local stack's table.
      [secretsEnv.backend]: 'dynamodb',
      [secretsEnv.table]: localSecretsTable.localName,
    });
    let failedInvocations = 0;
    const bindings: { consumer: (typeof streamConsumers)[number]; handler: ConsumerHandler }[] = [];
    // One at a time: jest's ES module loader can fail two concurrent imports that share a dependency.
    for (const consumer of streamConsumers) {
      const real = (await import(`../../${consumer.entry}`)).handler as ConsumerHandler;
      const counted: ConsumerHandler = async (event, ctx) => {
        try {
          const response = await real(event, ctx);
          if (response && response.batchItemFailures.length > 0) failedInvocations++;
          return response;
        } catch (error) {
          failedInvocations++;
          throw error;
        }
      };
      bindings.push({ consumer, handler: counted });
    }
    const onFailureFile = join(dataDir, 'on-failure.jsonl');
    const checkpoints = new FileCheckpointStore(join(dataDir, 'checkpoints.json'));
    const poller = new StreamPoller(kinesis, bindings, checkpoints, fileFailureSink(onFailureFile), {
      streamName: ingestStream.localName,
      region: 'us-east-1',
      pollIntervalMs: 50,
      retryBaseDelayMs: 100,
      // The stack caps a retry's delay at 5 s; 10 s here gives a JVM that restarts slowly on a busy machine
      // time to come back before the consumers' 10 retries are spent (about 40 s instead of 26 s).
      retryMaxDelayMs: 10_000,
      log: () => {},
    });
    await poller.start();
    cleanups.push(() => poller.stop());

    // A producer writes as the ingestion functions do: a backlog first, then more while DynamoDB is away.
    phase('consumers running');
    const run = randomUUID().slice(0, 8);
    const profileIds = Array.from({ length: PROFILES }, (_, i) => `restart-${run}-${i}`);
    const expected = new Map<string, Expected>(profileIds.map((id) => [id, { updates: 0, events: 0 }]));
    const receipts = new StreamReceipts(join(dataDir, 'checkpoints.json'));
    let batches = 0;
    const produce = async (count: number, pauseMs: number) => {
      for (let b = 0; b < count; b++, batches++) {
        const kind = batches % 2 === 0 ? 'profile' : 'event';
        const records = Array.from({ length: 25 }, (_, i) => {
          const profile_id = profileIds[(batches * 25 + i) % PROFILES];
          const base = { app_id: APP, profile_id, urm_date_time: '2026-11-21T10:00:00Z', urm_insert_id: randomUUID() };
          return kind === 'profile' ? { ...base, urm_add: { n: 1 } } : { ...base, event: 'spin', i };
        });
        const entries = toStreamEntries(kind, records, APP, { newId: randomUUID, now: () => new Date() });
        const out = await kinesis.send(
          new PutRecordsCommand({ StreamName: ingestStream.localName, Records: entries.map((e) => ({ Data: e.data, PartitionKey: e.partitionKey })) }),
        );
        expect(out.FailedRecordCount ?? 0).toBe(0);
        receipts.note(out.Records ?? []);
        for (const record of records) {
          const counts = expected.get(record.profile_id)!;
          if (kind === 'profile') counts.updates++;
          else counts.events++;
        }
        await sleep(pauseMs);
      }
    };
    await produce(40, 0);

    const observe = async (): Promise<Map<string, Expected>> => {
      const seen = new Map<string, Expected>();
      for (const id of profileIds) {
        const pk = `${APP}#${id}`;
        const profile = await reader.send(new GetCommand({ TableName: tables.profiles.localName, Key: { pk }, ConsistentRead: true }));
        let events = 0;
        let start: Record<string, unknown> | undefined;
        do {
          const page = await reader.send(
            new QueryCommand({
              TableName: tables.timeline.localName,
              KeyConditionExpression: 'pk = :pk',
              ExpressionAttributeValues: { ':pk': pk },
              ConsistentRead: true,
              ExclusiveStartKey: start,
            }),
          );
          // Page items: each holds one or more events.
          events += (page.Items ?? []).reduce((n, item) => n + entriesOf(item as TimelinePageItem).length, 0);
          start = page.LastEvaluatedKey;
        } while (start);
        seen.set(id, { updates: profile.Item ? ((JSON.parse(profile.Item.attrs as string).n as number) ?? 0) : 0, events });
      }
      return seen;
    };
    const total = (seen: Map<string, Expected>) => [...seen.values()].reduce((sum, s) => sum + s.updates + s.events, 0);

    // Mid-run: some records applied, more on their way, then DynamoDB goes away for a few seconds.
    for (const deadline = Date.now() + 30_000; total(await observe()) < 200; ) {
      if (Date.now() > deadline) throw new Error('the consumers applied nothing');
      await sleep(250);
    }
    const appliedBeforeOutage = total(await observe());
    phase('outage');
    await dynamoProcess.stop();
    const outageStarted = Date.now();
    await produce(20, 150);
    dynamoProcess = await startDynamoLocal({ port: dynamoPort, dataDir: dynamoDir, accessKeyId: credentials.accessKeyId });
    await dynamoUp(admin, dynamoProcess);
    const outageMs = Date.now() - outageStarted;
    phase('restarted');
    await produce(10, 50);

    // Once every consumer has passed every record written, nothing left on the stream can add or repeat one.
    await receipts.waitUntilDrained(120_000);
    phase('drained');
    const seen = await observe();

    const counts = deliveryCounts(expected, seen);
    const byKind = (pick: (e: Expected) => number) => [
      [...expected.values()].reduce((a, e) => a + pick(e), 0),
      [...seen.values()].reduce((a, e) => a + pick(e), 0),
    ];
    console.log(`updates sent/seen ${byKind((e) => e.updates)}, events sent/seen ${byKind((e) => e.events)}`);
    const sentToFailure = existsSync(onFailureFile) ? readFileSync(onFailureFile, 'utf8').trim().split('\n').filter(Boolean).length : 0;
    console.log(
      formatCounts(
        `DynamoDB down ${outageMs} ms mid-run (applied before ${appliedBeforeOutage}, failed invocations ${failedInvocations}, on-failure ${sentToFailure})`,
        counts,
      ),
    );
    expect(failedInvocations > 0).toBeTruthy();
    expect(appliedBeforeOutage < counts.sent).toBeTruthy();
    expect(sentToFailure).toBe(0);
    expect(counts.duplicated).toBe(0);
    expect(counts.lost).toBe(0);
    admin.destroy();
    kinesis.destroy();
  });
});
