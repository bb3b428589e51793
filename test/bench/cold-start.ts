/**
 * Figure 4: per function of functions/manifest/operations.ts, the bundle CDK would deploy
 * (esbuild with the options of lib/aws/constructs/function-code.ts and the bundleOptions of function-defaults.ts:
 * ESM, minified, targeting the runtime's Node.js, the AWS SDK bundled) and the time a fresh Node
 * process takes to load it, minus the time of a process that loads nothing.
 */
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { esbuildOptions } from '../../lib/aws/constructs/function-code';
import { bundleOptions, functionDefaults } from '../../lib/aws/constructs/function-defaults';
import { httpOperations, streamConsumers } from '../../functions/manifest/operations';
import { repoRoot } from '../support/local-stack';
import { functionEnvironment, median, report, round } from './support';

const RUNS = Number(process.env.URM_BENCH_COLD_RUNS ?? 7);
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
}

export interface ColdStartResult {
  emptyProcessMs: number;
  runs: number;
  functions: ColdStartCase[];
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

async function main(): Promise<ColdStartResult> {
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
    const emptyRuns = Array.from({ length: RUNS }, () => timeProcess(['-e', 'process.exit(0)'], baseEnv).ms);
    const emptyMs = median(emptyRuns);

    const functions: ColdStartCase[] = [];
    for (const definition of [...httpOperations, ...streamConsumers]) {
      const outfile = join(dir, definition.id, 'index.mjs');
      const built = await build({
        ...esbuildOptions(repoRoot, definition.entry, bundleOptions),
        metafile: true,
        outfile,
        logLevel: 'silent',
      });
      const url = pathToFileURL(outfile).href;
      // A function reads its variables at load; one this table does not know yet gets a dummy value.
      const env = { ...baseEnv };
      for (let tries = 0; tries < 20; tries++) {
        const probe = timeProcess([loader, url], env);
        const missing = /Missing environment variable (\w+)/.exec(probe.stderr)?.[1];
        if (probe.status === 0) break;
        if (!missing) throw new Error(`${definition.id} does not load: ${probe.stderr.slice(0, 500)}`);
        env[missing] = missing.endsWith('_URL') ? 'http://127.0.0.1:9' : 'dummy';
      }
      const loads = Array.from({ length: RUNS }, () => timeProcess([loader, url], env).ms);
      functions.push({
        id: definition.id,
        bytes: statSync(outfile).size,
        loadMs: round(Math.max(0, median(loads) - emptyMs), 1),
        ingestion: ingestionFunctions.includes(definition.id),
        heaviest: heaviestModules(built.metafile!.outputs[Object.keys(built.metafile!.outputs).find((o) => o.endsWith('.mjs') || o.endsWith('.js'))!].inputs),
      });
    }
    return { emptyProcessMs: round(emptyMs, 1), runs: RUNS, functions };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

report(await main());
