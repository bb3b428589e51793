/**
 * What the benchmark figures share: statistics, the environment a function
 * gets from the stack, counting DynamoDB calls, the local stack in a process
 * of its own, the rows of the table, and how a figure hands its result to
 * test/bench/run.ts (each figure runs in its own process, so a
 * module mocked or configured for one figure never leaks into another).
 */
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTables } from '../../lib/local/bootstrap';
import type { DevConfig } from '../../lib/local/demo-app';
import { startDynamoLocal } from '../../lib/local/emulators';
import type { LocalEndpoints } from '../../lib/local/stack';
import { tables, ingestStream } from '../../functions/manifest/resources';
import { secretsEnv } from '../../functions/manifest/secrets';
import {
  eventFunctions,
  httpOperations,
  routedFunctions,
  scheduledFunctions,
  streamConsumers,
  type FunctionDefinition,
} from '../../functions/manifest/operations';
import { endpointsOf, freePorts, startLocalProcess, waitFor } from '../support/local-process';
import { freePort } from '../support/ports';

export const median = (values: number[]): number => percentile(values, 50);

/** Every function that deploys, once: the manifest's HTTP operations, browser UIs' routed functions, stream consumers, scheduled and event functions, one per handler module. */
export function deployedFunctions(): FunctionDefinition[] {
  const byEntry = new Map<string, FunctionDefinition>();
  for (const definition of [...httpOperations, ...routedFunctions, ...streamConsumers, ...scheduledFunctions, ...eventFunctions]) {
    if (!byEntry.has(definition.entry)) byEntry.set(definition.entry, definition);
  }
  return [...byEntry.values()];
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export const round = (value: number, digits = 1): number => Number(value.toFixed(digits));

/** One side of a load run (autocannon or a bounded loop): its requests, latencies and failures. */
export interface RoundSide {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/** Rounds of equal length: rates are averaged, requests and errors add up, p50 is the mean and p99 the worst of the rounds. */
export function combineRounds<K extends string>(rounds: (RoundSide & Record<K, number>)[], rate: K): RoundSide & Record<K, number> {
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  return {
    [rate]: Math.round(mean(rounds.map((r) => r[rate]))),
    requests: rounds.reduce((sum, r) => sum + r.requests, 0),
    p50Ms: round(mean(rounds.map((r) => r.p50Ms)), 1),
    p99Ms: Math.max(...rounds.map((r) => r.p99Ms)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
  } as RoundSide & Record<K, number>;
}

/** Runs `work` repeatedly for at least `ms` (and `minRuns` times); returns the runs' durations in ms. */
export async function timeRuns(work: () => Promise<unknown> | unknown, ms: number, minRuns = 5): Promise<number[]> {
  const durations: number[] = [];
  const end = performance.now() + ms;
  while (durations.length < minRuns || performance.now() < end) {
    const start = performance.now();
    await work();
    durations.push(performance.now() - start);
  }
  return durations;
}

/** Table and stream variables as the stacks set them (local names), plus AWS credentials (a started stack's emulators answer its access key id only). */
export function functionEnvironment(endpoints: { dynamodb?: string; kinesis?: string; accessKeyId?: string } = {}): Record<string, string> {
  return {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: endpoints.accessKeyId ?? 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    ...(endpoints.dynamodb ? { AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb } : {}),
    ...(endpoints.kinesis ? { AWS_ENDPOINT_URL_KINESIS: endpoints.kinesis } : {}),
    ...Object.fromEntries(Object.values(tables).map((table) => [table.envVar, table.localName])),
    [ingestStream.envVar]: ingestStream.localName,
    // Browser-key writes read identity secrets; the benchmarks use server keys, so none is ever read.
    [secretsEnv.prefix]: '/urm/bench',
  };
}

export interface DynamoCounts {
  calls: number;
  byCommand: Record<string, number>;
  /** Milliseconds spent waiting for each command, summed. */
  msByCommand: Record<string, number>;
  /** Capacity units DynamoDB reported (ReturnConsumedCapacity TOTAL): what on-demand bills. */
  readUnits: number;
  writeUnits: number;
}

/**
 * Counts every call sent through a DynamoDB client (the document client
 * shares its base client's middleware stack) and asks each for its consumed
 * capacity, which DynamoDB Local reports as DynamoDB does.
 */
export function countDynamoCalls(client: Pick<DynamoDBClient, 'middlewareStack'>): { counts: DynamoCounts; reset(): void } {
  const counts: DynamoCounts = { calls: 0, byCommand: {}, msByCommand: {}, readUnits: 0, writeUnits: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? 'unknown';
      counts.calls++;
      counts.byCommand[command] = (counts.byCommand[command] ?? 0) + 1;
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity ??= 'TOTAL';
      const started = performance.now();
      const result = await next(args);
      counts.msByCommand[command] = (counts.msByCommand[command] ?? 0) + performance.now() - started;
      const consumed = (result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
      for (const capacity of ([] as { ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number }[]).concat((consumed as never) ?? [])) {
        if (capacity.ReadCapacityUnits !== undefined || capacity.WriteCapacityUnits !== undefined) {
          counts.readUnits += capacity.ReadCapacityUnits ?? 0;
          counts.writeUnits += capacity.WriteCapacityUnits ?? 0;
        } else if (/Get|Query|Scan/.test(command)) {
          counts.readUnits += capacity.CapacityUnits ?? 0;
        } else {
          counts.writeUnits += capacity.CapacityUnits ?? 0;
        }
      }
      return result;
    },
    { step: 'initialize', name: 'benchDynamoCounter' },
  );
  return {
    counts,
    reset() {
      counts.calls = 0;
      counts.byCommand = {};
      counts.msByCommand = {};
      counts.readUnits = 0;
      counts.writeUnits = 0;
    },
  };
}

/** A figure's process writes its result where run.ts told it to (URM_BENCH_OUT), or prints it. */
export function report(result: unknown): void {
  const out = process.env.URM_BENCH_OUT;
  if (out) writeFileSync(out, JSON.stringify(result, null, 2));
  else console.log(JSON.stringify(result, null, 2));
}

/** A row of the table `npm run bench` prints. */
export interface BenchRow {
  figure: string;
  measure: string;
  value: number | string;
  baseline: number | string;
  /** The ratio, with what it divides: the target, where there is one, is on the same ratio. */
  ratio: number | string;
  target: string;
}

export interface BenchStack {
  dev: DevConfig;
  endpoints: LocalEndpoints;
  /** What the stack has printed so far. */
  output: () => string;
}

/**
 * The local stack as `npm start` runs it, in its own process (so a load
 * generator does not share its event loop), on free ports with a fresh data
 * directory; stopped and removed when `work` is done.
 */
export async function withLocalStack<T>(work: (stack: BenchStack) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'urm-bench-stack-'));
  const env = { ...(await freePorts()), URM_DATA_DIR: dataDir };
  const stack = startLocalProcess(env);
  try {
    let exited = false;
    void stack.exited.then(() => (exited = true));
    await waitFor(() => exited || stack.output().includes('urm local stack ready'), 'the local stack', 90_000);
    if (exited) throw new Error(`the local stack did not start; it said:\n${stack.output().slice(-2000)}`);
    const dev = JSON.parse(readFileSync(join(dataDir, 'dev.json'), 'utf8')) as DevConfig;
    return await work({ dev, endpoints: endpointsOf(env), output: stack.output });
  } finally {
    stack.child.kill('SIGTERM');
    await stack.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** DynamoDB Local on a free port with the service's tables, for a figure measured in process; `stop` removes its data. */
export async function startBenchDynamo(prefix: string): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const port = await freePort();
  const dynamoProcess = await startDynamoLocal({ port, dataDir, accessKeyId: 'local' });
  const stop = async () => {
    await dynamoProcess.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const endpoint = `http://127.0.0.1:${port}`;
  const admin = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    requestHandler: new NodeHttpHandler(),
  });
  try {
    for (let i = 0; ; i++) {
      try {
        await admin.send(new ListTablesCommand({ Limit: 1 }));
        break;
      } catch (error) {
        if (i > 600) throw new Error(`DynamoDB Local did not start: ${(error as Error).message}\n${dynamoProcess.diagnostics()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    await ensureTables(admin);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    admin.destroy();
  }
  return { endpoint, stop };
}
