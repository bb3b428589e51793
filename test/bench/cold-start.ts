/**
 * Figure 4: per function that deploys (every entry of functions/manifest/operations.ts: HTTP operations, routed functions,
 * stream consumers, scheduled functions; one per handler module), the bundle CDK would deploy (esbuild with
 * the options of lib/aws/constructs/function-code.ts and the bundleOptions of function-defaults.ts: ESM,
 * minified, targeting the runtime's Node.js, the AWS SDK bundled) and the time a fresh Node process takes to
 * load it, minus the time of a process that loads nothing.
 *
 * Within a time budget (URM_BENCH_BUDGET_MS; run.ts gives it its share): bundling takes at most 60 % of it,
 * then the loads go in rounds, each round one load of every bundle and one empty process, until
 * URM_BENCH_COLD_RUNS rounds are done or the budget is spent. A busy machine gets fewer runs per function,
 * not a figure killed halfway; a function left out (not bundled in time, or failing to load) is named with
 * the reason, and the others are still measured.
 */
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { esbuildOptions } from '../../lib/aws/constructs/function-code';
import { bundleOptions, functionDefaults } from '../../lib/aws/constructs/function-defaults';
import type { FunctionDefinition } from '../../functions/manifest/operations';
import { repoRoot } from '../support/local-stack';
import { deployedFunctions, functionEnvironment, median, report, round } from './support';

const RUNS = Number(process.env.URM_BENCH_COLD_RUNS ?? 7);
const BUDGET_MS = Number(process.env.URM_BENCH_BUDGET_MS ?? 180_000);
/** The share of the budget bundling may take: the rest is for the loads. */
const BUNDLING_SHARE = 0.6;
/** Functions on the ingestion path, which the targets apply to. */
export const ingestionFunctions = ['IngestProfiles', 'IngestEvents'];

export interface ColdStartCase {
  id: string;
  bytes: number;
  /** Median load time of the bundle in a fresh process, less an empty process's. */
  loadMs: number;
  ingestion: boolean;
  /** The packages that weigh most in the bundle, with their minified bytes. */
  heaviest: { module: string; bytes: number }[];
  /** Loads measured (the first, which also finds the environment the function needs, not counted). */
  runs: number;
}

export interface ColdStartResult {
  emptyProcessMs: number;
  /** Runs asked for per function; a busy machine may leave fewer (each case says how many). */
  runs: number;
  budgetSeconds: number;
  functions: ColdStartCase[];
  /** Functions that deploy but could not be measured, and why. */
  notMeasured: { id: string; reason: string }[];
}

function timeProcess(args: string[], env: NodeJS.ProcessEnv): { ms: number; status: number | null; stderr: string } {
  const start = performance.now();
  const out = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  return { ms: performance.now() - start, status: out.status, stderr: out.stderr };
}

/** Bytes in the bundle per npm package (or `(ours)` for the repository's code), heaviest first. */
function heaviestModules(inputs: Record<string, { bytesInOutput: number }>): { module: string; bytes: number }[] {
  const byModule = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const name = match ? match[1] : '(ours)';
    byModule.set(name, (byModule.get(name) ?? 0) + bytesInOutput);
  }
  return [...byModule]
    .map(([module, bytes]) => ({ module, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 5);
}

interface Bundled {
  definition: FunctionDefinition;
  url: string;
  bytes: number;
  env: NodeJS.ProcessEnv;
  heaviest: ColdStartCase['heaviest'];
  loads: number[];
}

/** The bundle of `definition` built into `dir`, and the environment it loads with; throws when it does not load. */
async function bundle(definition: FunctionDefinition, dir: string, loader: string, baseEnv: NodeJS.ProcessEnv): Promise<Bundled> {
  const outfile = join(dir, definition.id, 'index.mjs');
  const built = await build({ ...esbuildOptions(repoRoot, definition.entry, bundleOptions), metafile: true, outfile, logLevel: 'silent' });
  const url = pathToFileURL(outfile).href;
  // A function reads its variables at load; one this table does not know yet gets a dummy value.
  const env = { ...baseEnv };
  for (let tries = 0; ; tries++) {
    const probe = timeProcess([loader, url], env);
    if (probe.status === 0) break;
    const missing = /Missing environment variable (\w+)/.exec(probe.stderr)?.[1];
    if (!missing || tries === 20) throw new Error(`does not load: ${probe.stderr.trim().split('\n').slice(0, 3).join(' | ').slice(0, 300)}`);
    env[missing] = missing.endsWith('_URL') ? 'http://127.0.0.1:9' : 'dummy';
  }
  const output = Object.keys(built.metafile.outputs).find((o) => o.endsWith('.mjs') || o.endsWith('.js'))!;
  return { definition, url, bytes: statSync(outfile).size, env, heaviest: heaviestModules(built.metafile.outputs[output].inputs), loads: [] };
}

async function main(): Promise<ColdStartResult> {
  const started = performance.now();
  const deadline = started + BUDGET_MS;
  const dir = mkdtempSync(join(tmpdir(), 'urm-bench-bundles-'));
  try {
    // Only what Lambda gives every function, plus the names the stack would pass: no tsx, no NODE_OPTIONS of ours.
    const baseEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      ...functionEnvironment(),
      AWS_LAMBDA_FUNCTION_NAME: 'bench',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(functionDefaults.memorySize),
      ...functionDefaults.environment,
      NODE_OPTIONS: '',
    };
    const loader = join(dir, 'load.mjs');
    writeFileSync(loader, 'await import(process.argv[2]);\nprocess.exit(0);\n');

    const notMeasured: ColdStartResult['notMeasured'] = [];
    const bundled: Bundled[] = [];
    const bundlingEnds = started + BUDGET_MS * BUNDLING_SHARE;
    for (const definition of deployedFunctions()) {
      if (performance.now() > bundlingEnds) {
        notMeasured.push({
          id: definition.id,
          reason: `not bundled within ${Math.round((BUDGET_MS * BUNDLING_SHARE) / 1000)} s, the bundling share of the budget`,
        });
        continue;
      }
      try {
        bundled.push(await bundle(definition, dir, loader, baseEnv));
      } catch (error) {
        notMeasured.push({ id: definition.id, reason: (error as Error).message });
      }
    }

    // Rounds: a slow moment of the machine falls on every function and on the empty process alike.
    const empty: number[] = [];
    for (let round = 0; round < RUNS && performance.now() < deadline; round++) {
      empty.push(timeProcess(['-e', 'process.exit(0)'], baseEnv).ms);
      for (const subject of bundled) {
        if (performance.now() > deadline) break;
        subject.loads.push(timeProcess([loader, subject.url], subject.env).ms);
      }
    }
    const emptyMs = median(empty);

    const functions: ColdStartCase[] = [];
    for (const subject of bundled) {
      if (subject.loads.length === 0) {
        notMeasured.push({ id: subject.definition.id, reason: `bundled, but not loaded within the ${Math.round(BUDGET_MS / 1000)} s budget` });
        continue;
      }
      functions.push({
        id: subject.definition.id,
        bytes: subject.bytes,
        loadMs: round(Math.max(0, median(subject.loads) - emptyMs), 1),
        ingestion: ingestionFunctions.includes(subject.definition.id),
        heaviest: subject.heaviest,
        runs: subject.loads.length,
      });
    }
    return { emptyProcessMs: round(emptyMs, 1), runs: RUNS, budgetSeconds: Math.round(BUDGET_MS / 1000), functions, notMeasured };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

report(await main());
