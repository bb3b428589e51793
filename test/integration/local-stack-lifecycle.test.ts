import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { request } from '../support/http';
import { repoRoot } from '../support/local-stack';
import { freePort } from '../support/ports';
import { readWholeStream } from '../support/stream';

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const dataDirs: string[] = [];
after(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** `npm start`, as a developer runs it, without npm in between (so a signal reaches the stack itself). */
function startLocal(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
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

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

async function ports() {
  return { PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()), KINESIS_PORT: String(await freePort()) };
}

describe('npm start', () => {
  test('keeps the demo application, its keys and the stream data across a SIGKILL and a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'urm-restart-'));
    dataDirs.push(dataDir);
    const env = { ...(await ports()), URM_DATA_DIR: dataDir };
    const baseUrl = `http://127.0.0.1:${env.PORT}`;

    const first = startLocal(env);
    await until(() => first.output().includes('urm local stack ready'), 'the first start');
    assert.match(first.output(), /Created the demo application: app_/);
    const dev = JSON.parse(readFileSync(join(dataDir, 'dev.json'), 'utf8'));
    const receipt = await request(baseUrl, 'POST', '/events', {
      key: dev.server_key,
      body: [{ app_id: dev.app_id, profile_id: 'p-restart', event: 'login', urm_date_time: '2026-11-21T10:00:00Z' }],
    });
    assert.equal(receipt.status, 200);
    first.child.kill('SIGKILL');
    await first.exited;
    await until(async () => (await portFree(Number(env.DYNAMODB_PORT))) && (await portFree(Number(env.PORT))), 'the ports to be released', 20_000);

    const second = startLocal(env);
    await until(() => second.output().includes('urm local stack ready'), 'the restart');
    try {
      assert.match(second.output(), new RegExp(`Demo application: ${dev.app_id}`));
      assert.deepEqual(JSON.parse(readFileSync(join(dataDir, 'dev.json'), 'utf8')), dev);
      const again = await request(baseUrl, 'POST', '/events', {
        key: dev.server_key,
        body: [{ app_id: dev.app_id, profile_id: 'p-restart', event: 'logout', urm_date_time: '2026-11-21T11:00:00Z' }],
      });
      assert.equal(again.status, 200);
      const stream = await readWholeStream({
        base_url: baseUrl,
        dynamodb_endpoint: `http://127.0.0.1:${env.DYNAMODB_PORT}`,
        kinesis_endpoint: `http://127.0.0.1:${env.KINESIS_PORT}`,
        region: 'us-east-1',
      });
      assert.deepEqual(
        stream.filter((r) => r.envelope.record.profile_id === 'p-restart').map((r) => r.sequenceNumber),
        [receipt.body.Records[0].SequenceNumber, again.body.Records[0].SequenceNumber],
      );
    } finally {
      second.child.kill('SIGTERM');
    }
    assert.equal(await second.exited, 0, 'SIGTERM stops the stack cleanly');
    assert.ok(await portFree(Number(env.DYNAMODB_PORT)), 'DynamoDB Local stops with the stack');
  });

  test('says which port is taken, without a stack trace', async () => {
    const env = { ...(await ports()), URM_DATA_DIR: mkdtempSync(join(tmpdir(), 'urm-port-')) };
    dataDirs.push(env.URM_DATA_DIR);
    const holder = createServer().listen(Number(env.PORT), '127.0.0.1');
    try {
      const started = startLocal(env);

      assert.equal(await started.exited, 1);
      assert.match(started.output(), new RegExp(`Port ${env.PORT} \\(the API\\) is already in use\\. .*set PORT`));
      assert.doesNotMatch(started.output(), /\n\s+at /);
    } finally {
      holder.close();
    }
  });

  test('says that Java is needed when there is none', async () => {
    const env = { ...(await ports()), URM_DATA_DIR: mkdtempSync(join(tmpdir(), 'urm-java-')), PATH: '/nonexistent' };
    dataDirs.push(env.URM_DATA_DIR);

    const started = startLocal(env);

    assert.equal(await started.exited, 1);
    assert.match(started.output(), /DynamoDB Local needs a Java 17\+ runtime/);
    assert.doesNotMatch(started.output(), /\n\s+at /);
  });
});
