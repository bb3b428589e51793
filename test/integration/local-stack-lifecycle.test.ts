import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { request } from '../support/http';
import { endpointsOf, freePorts, killHard, portFree, startLocalProcess as startLocal, waitFor as until } from '../support/local-process';
import { readWholeStream } from '../support/stream';

const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  test('keeps the demo application, its keys and the stream data across a SIGKILL and a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'urm-restart-'));
    dataDirs.push(dataDir);
    const env = { ...(await freePorts()), URM_DATA_DIR: dataDir };
    const baseUrl = `http://127.0.0.1:${env.PORT}`;

    const first = startLocal(env);
    await until(() => first.output().includes('urm local stack ready'), 'the first start');
    expect(first.output()).toMatch(/Created the demo application: app_/);
    const dev = JSON.parse(readFileSync(join(dataDir, 'dev.json'), 'utf8'));
    const receipt = await request(baseUrl, 'POST', '/events', {
      key: dev.server_key,
      body: [{ app_id: dev.app_id, profile_id: 'p-restart', event: 'login', urm_date_time: '2026-11-21T10:00:00Z' }],
    });
    expect(receipt.status).toBe(200);
    await killHard(first, env);

    const second = startLocal(env);
    await until(() => second.output().includes('urm local stack ready'), 'the restart');
    try {
      expect(second.output()).toMatch(new RegExp(`Demo application: ${dev.app_id}`));
      expect(JSON.parse(readFileSync(join(dataDir, 'dev.json'), 'utf8'))).toEqual(dev);
      const again = await request(baseUrl, 'POST', '/events', {
        key: dev.server_key,
        body: [{ app_id: dev.app_id, profile_id: 'p-restart', event: 'logout', urm_date_time: '2026-11-21T11:00:00Z' }],
      });
      expect(again.status).toBe(200);
      const stream = await readWholeStream(endpointsOf(env));
      expect(stream.filter((r) => r.envelope.record.profile_id === 'p-restart').map((r) => r.sequenceNumber)).toEqual([
        receipt.body.Records[0].SequenceNumber,
        again.body.Records[0].SequenceNumber,
      ]);
    } finally {
      second.child.kill('SIGTERM');
    }
    expect(await second.exited).toBe(0);
    expect(await portFree(Number(env.DYNAMODB_PORT))).toBeTruthy();
  });

  test('says which port is taken, without a stack trace', async () => {
    const env = { ...(await freePorts()), URM_DATA_DIR: mkdtempSync(join(tmpdir(), 'urm-port-')) };
    dataDirs.push(env.URM_DATA_DIR);
    const holder = createServer().listen(Number(env.PORT), '127.0.0.1');
    try {
      const started = startLocal(env);

      expect(await started.exited).toBe(1);
      expect(started.output()).toMatch(new RegExp(`Port ${env.PORT} \\(the API\\) is already in use\\. .*set PORT`));
      expect(started.output()).not.toMatch(/\n\s+at /);
    } finally {
      holder.close();
    }
  });

  test('says that Java is needed when there is none', async () => {
    const env = { ...(await freePorts()), URM_DATA_DIR: mkdtempSync(join(tmpdir(), 'urm-java-')), PATH: '/nonexistent' };
    dataDirs.push(env.URM_DATA_DIR);

    const started = startLocal(env);

    expect(await started.exited).toBe(1);
    expect(started.output()).toMatch(/DynamoDB Local needs a Java 17\+ runtime/);
    expect(started.output()).not.toMatch(/\n\s+at /);
  });
});
