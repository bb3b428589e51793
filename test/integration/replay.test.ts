/**
 * Replay after a failure: the local stack's timeline table goes away, so the
 * event consumer cannot apply an event and, after its retries, sends the batch
 * to the on-failure destination (.urm/on-failure.jsonl). The table comes back;
 * `npm run admin -- replay` applies the event from the stream and unlists it;
 * a second replay finds nothing, and replaying the same entry again changes
 * nothing. The stack is this test's own (it breaks a table).
 */
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { ReplayOutcome } from '../../functions/back-office/replay';
import { tables } from '../../functions/manifest/resources';
import { ensureTables } from '../../lib/local/bootstrap';
import type { DevConfig } from '../../lib/local/demo-app';
import { localCredentials } from '../../lib/local/stack';
import { request } from '../support/http';
import { endpointsOf, freePorts, startLocalProcess, waitFor, type LocalProcess } from '../support/local-process';
import { adminCli, type TestStack } from '../support/local-stack';
import { readProfile, readTimeline, until } from '../support/profiles';

const dataDir = mkdtempSync(join(tmpdir(), 'urm-replay-'));
const onFailureFile = join(dataDir, 'on-failure.jsonl');
let running: LocalProcess;
let stack: TestStack;
let dynamo: DynamoDBClient;

beforeAll(async () => {
  const env = { ...(await freePorts()), URM_DATA_DIR: dataDir };
  running = startLocalProcess(env);
  await waitFor(() => running.output().includes('urm local stack ready'), 'the stack').catch((error) => {
    throw new Error(`${error.message}; the stack said:\n${running.output().slice(-3000)}`);
  });
  const dev = JSON.parse(readFileSync(join(dataDir, 'dev.json'), 'utf8')) as DevConfig;
  stack = { baseUrl: `http://127.0.0.1:${env.PORT}`, dev } as TestStack;
  const endpoints = endpointsOf(env);
  dynamo = new DynamoDBClient({ endpoint: endpoints.dynamodb_endpoint, region: endpoints.region, credentials: localCredentials(endpoints) });
});

afterAll(async () => {
  running?.child.kill('SIGTERM');
  await running?.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm run admin -- --data-dir <dir> replay --json`, as an operator runs it. */
async function replay(): Promise<ReplayOutcome[]> {
  return JSON.parse(await adminCli(dataDir, ['replay'], { env: { POWERTOOLS_LOG_LEVEL: 'ERROR' } })) as ReplayOutcome[];
}

const listed = () => (existsSync(onFailureFile) ? readFileSync(onFailureFile, 'utf8').split('\n').filter(Boolean) : []);

describe('replay of what the consumers gave up on', () => {
  test('applies a failed event once the cause is fixed, and a second replay changes nothing', async () => {
    const profileId = `replay-${randomUUID()}`;
    const insertId = randomUUID();

    // The fault: the timeline table is gone, so the event consumer's writes fail until it is back.
    await dynamo.send(new DeleteTableCommand({ TableName: tables.timeline.localName }));
    const sent = await request(stack.baseUrl, 'POST', '/events', {
      key: stack.dev.server_key,
      body: [{ app_id: stack.dev.app_id, profile_id: profileId, urm_date_time: '2026-11-23T10:00:00Z', urm_insert_id: insertId, event: 'deposit', amount: 5 }],
    });
    expect(sent.status).toBe(200);
    expect(sent.body.FailedRecordCount).toBe(0);
    const sequenceNumber = sent.body.Records[0].SequenceNumber as string;
    // After its retries (about 30 s of backoff), the poller lists the batch.
    await waitFor(() => listed().some((line) => line.includes(sequenceNumber)), 'the on-failure destination', 120_000);
    const [entry] = listed();
    expect(JSON.parse(entry)).toMatchObject({
      requestContext: { condition: 'RetryAttemptsExhausted', functionArn: expect.stringMatching(/:function:RecordEventsFunction$/) },
      KinesisBatchInfo: { startSequenceNumber: sequenceNumber, endSequenceNumber: sequenceNumber, batchSize: 1 },
    });

    // The cause fixed: the table is back, empty; the event is not on the timeline.
    await ensureTables(dynamo, [tables.timeline]);
    expect(await readTimeline(stack, profileId)).toEqual([]);

    const first = await replay();

    expect(first).toEqual([expect.objectContaining({ status: 'replayed', consumer: 'RecordEvents', records: 1, startSequenceNumber: sequenceNumber })]);
    expect(listed()).toEqual([]);
    const timeline = await readTimeline(stack, profileId);
    expect(timeline.map((event) => [event.event, event.urm_insert_id])).toEqual([['deposit', insertId]]);

    const second = await replay();

    expect(second).toEqual([]);
    expect(await readTimeline(stack, profileId)).toEqual(timeline);

    // The same entry listed again (a message delivered twice): replayed, and the timeline is unchanged.
    appendFileSync(onFailureFile, `${entry}\n`);
    const again = await replay();

    expect(again).toEqual([expect.objectContaining({ status: 'replayed', records: 1 })]);
    expect(await readTimeline(stack, profileId)).toEqual(timeline);
  });

  // Known limit (docs/architecture.md, "When the pipeline fails"): the profile consumer skips a record whose sequence
  // number is not after the last it applied to the profile from that shard, so a replayed record that a later one of
  // its profile overtook is not applied. `failing` until the consumer tells a replay from a redelivery: then this
  // test fails, and becomes a plain test.
  test.failing('applies a failed profile record even after a later record of its profile was applied', async () => {
    const profileId = `replay-${randomUUID()}`;
    const profileRecord = (attributes: Record<string, unknown>) => ({
      app_id: stack.dev.app_id,
      profile_id: profileId,
      urm_date_time: '2026-11-23T10:00:00Z',
      urm_insert_id: randomUUID(),
      urm_set: attributes,
    });

    await dynamo.send(new DeleteTableCommand({ TableName: tables.profiles.localName }));
    const sent = await request(stack.baseUrl, 'POST', '/profiles', { key: stack.dev.server_key, body: [profileRecord({ vip: true })] });
    expect(sent.status).toBe(200);
    const sequenceNumber = sent.body.Records[0].SequenceNumber as string;
    await waitFor(() => listed().some((line) => line.includes(sequenceNumber)), 'the on-failure destination', 120_000);
    await ensureTables(dynamo, [tables.profiles]);
    // The profile's next record arrives, and is applied, before the operator replays.
    await request(stack.baseUrl, 'POST', '/profiles', { key: stack.dev.server_key, body: [profileRecord({ level: 2 })] });
    await until(
      () => readProfile(stack, profileId),
      (profile) => profile.status === 200,
      'the later record',
      30_000,
    );

    const outcomes = await replay();

    expect(outcomes).toEqual([expect.objectContaining({ status: 'replayed', consumer: 'ApplyProfiles', records: 1 })]);
    expect((await readProfile(stack, profileId)).body.attributes).toMatchObject({ vip: true, level: 2 });
  });
});
