/** `npm start` as a separate process, for tests that kill and restart it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import type { LocalEndpoints } from '../../lib/local/stack';
import { repoRoot } from './local-stack';
import { freePort } from './ports';

export interface LocalProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

export interface LocalProcessEnv {
  PORT: string;
  DYNAMODB_PORT: string;
  KINESIS_PORT: string;
  SES_PORT?: string;
  URM_DATA_DIR?: string;
  [name: string]: string | undefined;
}

/** Started without npm in between, so a signal reaches the stack itself; `args` as after `npm start --`. */
export function startLocalProcess(env: LocalProcessEnv, args: string[] = []): LocalProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'WARN', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

export async function freePorts(): Promise<LocalProcessEnv> {
  return {
    PORT: String(await freePort()),
    DYNAMODB_PORT: String(await freePort()),
    KINESIS_PORT: String(await freePort()),
    SES_PORT: String(await freePort()),
  };
}

/** Where the started stack's emulators are and the access key id they answer, as `npm run admin` finds them: its data directory's stack.json. */
export function endpointsOf(env: LocalProcessEnv): LocalEndpoints {
  return JSON.parse(readFileSync(join(resolve(repoRoot, env.URM_DATA_DIR || '.urm'), 'stack.json'), 'utf8')) as LocalEndpoints;
}

/** Kills the stack with SIGKILL and waits until its ports are free again (DynamoDB Local follows it down). */
export async function killHard(process: LocalProcess, env: LocalProcessEnv): Promise<void> {
  process.child.kill('SIGKILL');
  await process.exited;
  await waitFor(async () => (await portFree(Number(env.DYNAMODB_PORT))) && (await portFree(Number(env.PORT))), 'the ports to be released', 20_000);
}
