import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { CreateStreamCommand, GetRecordsCommand, PutRecordsCommand, type KinesisClient } from '@aws-sdk/client-kinesis';
import type { KinesisStreamEvent } from 'aws-lambda';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKinesalite, type RunningKinesis } from '../../../lib/local/emulators';
import { localClients } from '../../../lib/local/stack';
import { FileCheckpointStore } from '../../../lib/local/stream-poller/checkpoints';
import type { FailureRecord } from '../../../lib/local/stream-poller/on-failure';
import { StreamPoller, type ConsumerHandler } from '../../../lib/local/stream-poller/poller';
import type { StreamConsumer } from '../../../functions/manifest/operations';
import { freePort } from '../../support/ports';

let dir: string;
let emulator: RunningKinesis;
let kinesis: KinesisClient;
let streamCount = 0;
let streamName: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'urm-poller-'));
  const port = await freePort();
  emulator = await startKinesalite({ port, host: '127.0.0.1', dataDir: join(dir, 'kinesis'), accessKeyId: 'test' });
  kinesis = localClients({
    dynamodb_endpoint: 'http://127.0.0.1:1',
    kinesis_endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    access_key_id: 'test',
  }).kinesis;
});
afterAll(async () => {
  kinesis.destroy();
  await emulator.stop();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  streamName = `s${++streamCount}`;
  await kinesis.send(new CreateStreamCommand({ StreamName: streamName, ShardCount: 1 }));
  await new Promise((resolve) => setTimeout(resolve, 20));
});

const consumer = (overrides: Partial<StreamConsumer> = {}): StreamConsumer => ({
  id: 'Test',
  entry: 'unused',
  tables: {},
  kinds: ['event'],
  batchSize: 10,
  retryAttempts: 2,
  maxRecordAgeSeconds: 3600,
  ...overrides,
});

async function put(values: { kind: string; n: number }[]): Promise<void> {
  await kinesis.send(
    new PutRecordsCommand({
      StreamName: streamName,
      Records: values.map((v) => ({ PartitionKey: 'p', Data: Buffer.from(JSON.stringify({ v: 1, ...v })) })),
    }),
  );
}

const numbers = (event: KinesisStreamEvent) => event.Records.map((r) => (JSON.parse(Buffer.from(r.kinesis.data, 'base64').toString()) as { n: number }).n);

async function run(handler: ConsumerHandler, options: { consumer?: StreamConsumer; until: () => boolean; checkpoints?: FileCheckpointStore }) {
  const failures: FailureRecord[] = [];
  const checkpoints = options.checkpoints ?? new FileCheckpointStore(join(dir, `${streamName}-checkpoints.json`));
  const poller = new StreamPoller(kinesis, [{ consumer: options.consumer ?? consumer(), handler }], checkpoints, async (f) => void failures.push(f), {
    streamName,
    region: 'us-east-1',
    pollIntervalMs: 10,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 5,
    log: () => {},
  });
  await poller.start();
  const deadline = Date.now() + 10_000;
  while (!options.until() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  await poller.stop();
  return { failures, checkpoints };
}

describe('local stream poller', () => {
  test('delivers only the records of the consumer’s kinds, in order', async () => {
    await put([
      { kind: 'event', n: 1 },
      { kind: 'profile', n: 2 },
      { kind: 'event', n: 3 },
    ]);
    const seen: number[] = [];

    await run(async (event) => void seen.push(...numbers(event)), { until: () => seen.length >= 2 });

    expect(seen).toEqual([1, 3]);
  });

  test('after a partial batch failure, retries from the first failed record', async () => {
    await put([1, 2, 3, 4].map((n) => ({ kind: 'event', n })));
    const batches: number[][] = [];
    let failedOnce = false;

    await run(
      async (event) => {
        batches.push(numbers(event));
        if (!failedOnce) {
          failedOnce = true;
          return { batchItemFailures: [{ itemIdentifier: event.Records[2].kinesis.sequenceNumber }] };
        }
        return { batchItemFailures: [] };
      },
      { until: () => batches.length >= 2 },
    );

    expect(batches).toEqual([
      [1, 2, 3, 4],
      [3, 4],
    ]);
  });

  test('bisects a batch whose invocation throws, and sends the poisoned record to the on-failure destination after the retries', async () => {
    await put([1, 2, 3, 4].map((n) => ({ kind: 'event', n })));
    const processed: number[] = [];

    const { failures } = await run(
      async (event) => {
        const ns = numbers(event);
        if (ns.includes(3)) throw new Error('poison');
        processed.push(...ns);
      },
      { until: () => processed.includes(4) },
    );

    expect(processed).toEqual([1, 2, 4]);
    expect(failures.length).toBe(1);
    expect(failures[0].KinesisBatchInfo.batchSize).toBe(1);
    expect(failures[0].requestContext.condition).toBe('RetryAttemptsExhausted');
    expect(failures[0].reason).toBe('poison');
  });

  test('resumes after the last checkpoint when started again', async () => {
    await put([1, 2].map((n) => ({ kind: 'event', n })));
    const first: number[] = [];
    const { checkpoints } = await run(async (event) => void first.push(...numbers(event)), { until: () => first.length >= 2 });
    await put([3].map((n) => ({ kind: 'event', n })));

    const reloaded = new FileCheckpointStore(join(dir, `${streamName}-checkpoints.json`));
    await reloaded.load();
    const second: number[] = [];
    await run(async (event) => void second.push(...numbers(event)), { until: () => second.length >= 1, checkpoints: reloaded });

    expect(first).toEqual([1, 2]);
    expect(second).toEqual([3]);
    expect(existsSync(join(dir, `${streamName}-checkpoints.json`))).toBeTruthy();
    expect(checkpoints.get('Test', 'shardId-000000000000')).toBeTruthy();
    expect(JSON.parse(readFileSync(join(dir, `${streamName}-checkpoints.json`), 'utf8')).Test).toBeTruthy();
  });
});

describe('an idle poller told of puts', () => {
  /** Longer than any test here waits: a poller that waited it out would fail the test. */
  const idlePollMs = 600_000;
  const poller = (consumerHandler: ConsumerHandler, client: KinesisClient = kinesis) =>
    new StreamPoller(
      client,
      [{ consumer: consumer(), handler: consumerHandler }],
      new FileCheckpointStore(join(dir, `${streamName}-idle.json`)),
      async () => {},
      {
        streamName,
        region: 'us-east-1',
        pollIntervalMs: 10,
        idlePollMs,
        retryBaseDelayMs: 1,
        retryMaxDelayMs: 5,
        log: () => {},
      },
    );
  const until = async (done: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  test('polls at once when kinesalite stores records, not after its idle wait', async () => {
    const seen: number[] = [];
    const idle = poller(async (event) => void seen.push(...numbers(event)));
    emulator.onRecordsPut(() => idle.recordsPut());
    await idle.start();
    // Idle: its first polls found nothing.
    await new Promise((resolve) => setTimeout(resolve, 100));

    await put([{ kind: 'event', n: 7 }]);
    await until(() => seen.length > 0);
    await idle.stop();

    expect(seen).toEqual([7]);
  });

  test('does not miss a put that lands while a GetRecords that finds nothing is under way', async () => {
    const seen: number[] = [];
    let getRecords = 0;
    let idle: StreamPoller | undefined;
    // The real client, but the first GetRecords returns nothing however many records there are, and the put lands meanwhile.
    const racing = {
      send: async (command: unknown) => {
        if (command instanceof GetRecordsCommand && ++getRecords === 1) {
          const answer = await kinesis.send(command);
          await put([{ kind: 'event', n: 8 }]);
          idle!.recordsPut();
          return { ...answer, Records: [] };
        }
        return kinesis.send(command as never);
      },
    } as unknown as KinesisClient;
    idle = poller(async (event) => void seen.push(...numbers(event)), racing);

    await idle.start();
    await until(() => seen.length > 0);
    await idle.stop();

    expect(seen).toEqual([8]);
  });
});
