/**
 * Load: mixed traffic (profile records using every directive, and events)
 * against a local stack of this test's own, on loopback. A short ramp finds
 * the highest rate the stack holds (p99 well under 1 s, the consumers
 * keeping up), then the test holds it for 60 s, adjusting down if the consumers fall
 * behind. Afterwards every receipted record must be applied: exact counters
 * (urm_add of 1 per profile record, one timeline entry per event) show none
 * lost and none applied twice, and every deleted profile is gone.
 *
 * Consumer lag is read from the stack's checkpoints (.urm/checkpoints.json
 * in its data directory) against the sequence numbers of the receipts.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import type { DevConfig } from '../../lib/local/demo-app';
import { deliveryCounts, formatCounts, type Expected } from '../support/delivery-counts';
import { request } from '../support/http';
import { freePorts, startLocalProcess, waitFor, type LocalProcess } from '../support/local-process';
import type { TestStack } from '../support/local-stack';
import { freePort } from '../support/ports';
import { readProfile, readTimeline } from '../support/profiles';
import { StreamReceipts } from '../support/stream-drain';

const HOLD_SECONDS = Number(process.env.URM_LOAD_SECONDS ?? 60);
const STEP_SECONDS = 1.5;
/** Rates of the ramp, records/s: ×1.6 a step. */
const RAMP = Array.from({ length: 10 }, (_, i) => Math.round(100 * 1.6 ** i));
const RECORDS_PER_REQUEST = 50;
const PROFILES = 40;
const SOURCES = 10;
const DOOMED = 100;
const P99_LIMIT_MS = 1000;
/** Consumer lag (seconds behind the newest receipt) that makes the hold slow down, unless the consumers' own latency on this machine is longer. */
const MAX_LAG_SECONDS = 3;
const MAX_IN_FLIGHT = 100;

const dataDir = mkdtempSync(join(tmpdir(), 'urm-load-'));
let stack: LocalProcess | undefined;
afterAll(async () => {
  if (stack) {
    stack.child.kill('SIGTERM');
    await stack.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0;
};

describe('sustained mixed load on the local stack', () => {
  test(`${HOLD_SECONDS} s at the highest rate it holds: no errors, every receipted record applied once`, async () => {
    const env = { ...(await freePorts()), SES_PORT: String(await freePort()), URM_DATA_DIR: dataDir };
    const baseUrl = `http://127.0.0.1:${env.PORT}`;
    stack = startLocalProcess(env);
    let exited = false;
    void stack.exited.then(() => (exited = true));
    await waitFor(() => exited || stack!.output().includes('urm local stack ready'), 'the local stack', 90_000);
    expect(!exited).toBeTruthy();
    const dev = JSON.parse(readFileSync(join(dataDir, 'dev.json'), 'utf8')) as DevConfig;
    const run = randomUUID().slice(0, 8);
    const counters = Array.from({ length: PROFILES }, (_, i) => `load-${run}-${i}`);
    const sources = Array.from({ length: SOURCES }, (_, i) => `load-${run}-source-${i}`);
    const doomed = Array.from({ length: DOOMED }, (_, i) => `load-${run}-doomed-${i}`);
    const at = '2026-11-21T10:00:00Z';
    const base = (profile_id: string) => ({ app_id: dev.app_id, profile_id, urm_date_time: at, urm_insert_id: randomUUID() });

    // What the load will merge from and delete: created first, and applied before the load starts.
    const setup = [
      ...sources.map((id, i) => ({ ...base(id), urm_set: { [`src_${i}`]: `from ${i}` } })),
      ...doomed.map((id) => ({ ...base(id), urm_set: { doomed: true } })),
    ];
    const setupAnswer = await request(baseUrl, 'POST', '/profiles', { key: dev.server_key, body: setup });
    expect(setupAnswer.status).toBe(200);
    const setupReceipts = setupAnswer.body.Records as { ShardId: string; SequenceNumber: string }[];

    // ---- the traffic ----
    const expected = new Map<string, Expected>(counters.map((id) => [id, { updates: 0, events: 0 }]));
    const toDelete = [...doomed];
    let sequence = 0;
    const directives = [
      () => ({ urm_set: { tier: ['bronze', 'silver', 'gold'][sequence % 3], note: 'hello' } }),
      () => ({ urm_set_if_null: { first_seen: at } }),
      () => ({ urm_append: { games: ['slots'] } }),
      () => ({ urm_unique_append: { badges: [`b${sequence % 5}`] } }),
      () => ({ urm_remove: { badges: [`b${sequence % 5}`] } }),
      () => ({ urm_unset: ['note'] }),
      () => ({ urm_set: { temp: sequence } }),
      () => ({ urm_delete: ['temp'] }),
      () => ({ urm_merge: [sources[sequence % SOURCES]] }),
      () => ({ urm_add: { amount: 0.1 } }),
    ];
    const nextRequest = (): { path: '/profiles' | '/events'; records: Record<string, unknown>[] } => {
      const path = sequence % 2 === 0 ? '/profiles' : '/events';
      const records: Record<string, unknown>[] = [];
      for (let i = 0; i < RECORDS_PER_REQUEST; i++) {
        sequence++;
        const profileId = counters[sequence % PROFILES];
        if (path === '/events') records.push({ ...base(profileId), event: 'spin', stake: (sequence % 20) + 0.5 });
        else if (i === 0 && toDelete.length > 0) records.push({ ...base(toDelete.pop()!), urm_delete_profile: 'profile_id' });
        else {
          const directive = directives[sequence % directives.length]();
          // urm_add of n counts the record; a second urm_add (amount) goes in the same object.
          const add = { n: 1, ...((directive as { urm_add?: object }).urm_add ?? {}) };
          records.push({ ...base(profileId), ...directive, urm_add: add, visits: sequence });
        }
      }
      return { path, records };
    };

    let errors = 0;
    const errorSamples: string[] = [];
    let receiptedRecords = 0;
    const receipts = new StreamReceipts(join(dataDir, 'checkpoints.json'));
    receipts.note(setupReceipts);
    const latencies: { at: number; ms: number }[] = [];
    let inFlight = 0;
    let overloaded = false;

    const send = async () => {
      const { path, records } = nextRequest();
      inFlight++;
      const start = performance.now();
      try {
        const response = await request(baseUrl, 'POST', path, { key: dev.server_key, body: records });
        latencies.push({ at: performance.now(), ms: performance.now() - start });
        if (response.status !== 200 || response.body.FailedRecordCount !== 0) {
          errors++;
          if (errorSamples.length < 5) errorSamples.push(`${path} ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
          return;
        }
        receiptedRecords += records.length;
        records.forEach((record) => {
          const counts = expected.get(record.profile_id as string);
          if (counts && path === '/profiles') counts.updates++;
          if (counts && path === '/events') counts.events++;
        });
        receipts.note(response.body.Records);
      } catch (error) {
        errors++;
        if (errorSamples.length < 5) errorSamples.push(`${path}: ${(error as Error).message}`);
      } finally {
        inFlight--;
      }
    };

    /** Sends at `rate` records/s for `seconds` (open loop: on schedule, whatever the answers). */
    const drive = async (rate: number, seconds: number, pending: Promise<void>[]) => {
      const interval = (RECORDS_PER_REQUEST / rate) * 1000;
      const started = performance.now();
      for (let n = 0; ; n++) {
        const due = started + n * interval;
        if (due - started >= seconds * 1000) break;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        else if (-wait > interval) {
          // This process fell behind its own schedule (a busy machine): skip the slot rather than burst.
          overloaded = true;
          continue;
        }
        if (inFlight >= MAX_IN_FLIGHT) {
          overloaded = true;
          continue;
        }
        pending.push(send());
      }
    };

    const lagSeconds = () => receipts.lagSeconds();
    const drained = () => receipts.drained();

    // ---- warm-up: the setup and a little traffic applied, so the JVM of DynamoDB Local is not cold in the ramp ----
    // The second round measures how long the consumers take to catch up at a low rate on this machine: their latency.
    const pending: Promise<void>[] = [];
    let latencyMs = 0;
    for (let round = 0; round < 2; round++) {
      await drive(RAMP[0], STEP_SECONDS, pending);
      await Promise.all(pending);
      const from = Date.now();
      while (!drained() && Date.now() - from < 30_000) await sleep(100);
      latencyMs = Date.now() - from;
    }
    // Keeping up: catching up after a step within twice that latency (at least 2 s), never more than 3 s behind in the hold.
    const drainLimitMs = Math.max(2000, 2 * latencyMs + 500);
    const maxLagSeconds = Math.max(MAX_LAG_SECONDS, (2 * latencyMs) / 1000 + 1);

    // ---- ramp: a step holds when p99 stays under half the limit and the consumers keep up; a failed step gets a second try ----
    let held = 0;
    const rampLog: string[] = [];
    for (let i = 0, tries = 0; i < RAMP.length; ) {
      const rate = RAMP[i];
      const from = performance.now();
      overloaded = false;
      await drive(rate, STEP_SECONDS, pending);
      await Promise.all(pending);
      const p99 = percentile(
        latencies.filter((l) => l.at >= from).map((l) => l.ms),
        99,
      );
      const drainStart = Date.now();
      while (!drained() && Date.now() - drainStart < drainLimitMs + 2000) await sleep(100);
      const drainMs = Date.now() - drainStart;
      rampLog.push(`${rate}/s p99 ${Math.round(p99)} ms drain ${drainMs} ms${overloaded ? ' overloaded' : ''}`);
      if (errors > 0) break;
      if (p99 < P99_LIMIT_MS / 2 && !overloaded && drainMs <= drainLimitMs) {
        held = rate;
        i++;
        tries = 0;
      } else if (++tries >= 2) break;
    }
    console.log(`load ramp (consumer latency ${latencyMs} ms): ${rampLog.join('; ')}`);
    expect(errors).toBe(0);
    // Even when the lowest step did not hold (a busy machine), the hold runs at it: its p99 and counts decide.
    held = Math.max(held, RAMP[0]);
    for (const from = Date.now(); !drained() && Date.now() - from < 30_000; ) await sleep(100);

    // ---- hold, slowing down when the consumers fall behind ----
    let rate = held;
    const holdFrom = performance.now();
    const receiptedBeforeHold = receiptedRecords;
    const rates: number[] = [];
    while (performance.now() - holdFrom < HOLD_SECONDS * 1000) {
      const window = Math.min(2, HOLD_SECONDS - (performance.now() - holdFrom) / 1000);
      const windowFrom = performance.now();
      await drive(rate, window, pending);
      rates.push(rate);
      const lag = lagSeconds();
      if (process.env.URM_TEST_VERBOSE)
        console.log(`window ${window.toFixed(2)} s at ${rate}/s: ${latencies.filter((l) => l.at >= windowFrom).length} answers, lag ${lag.toFixed(1)} s`);
      const p99 = percentile(
        latencies.filter((l) => l.at >= windowFrom).map((l) => l.ms),
        99,
      );
      // Behind or slow: back off. Comfortably ahead: try a little more.
      if (lag > maxLagSeconds || overloaded || p99 > P99_LIMIT_MS * 0.6) rate = Math.max(50, Math.round(rate * 0.8));
      else if (lag < 1 && p99 < P99_LIMIT_MS * 0.3) rate = Math.round(rate * 1.1);
      overloaded = false;
    }
    await Promise.all(pending);
    const holdSeconds = (performance.now() - holdFrom) / 1000;
    const holdLatencies = latencies.filter((l) => l.at >= holdFrom).map((l) => l.ms);
    const reached = Math.round((receiptedRecords - receiptedBeforeHold) / holdSeconds);

    // ---- drain, then count ----
    const drainFrom = Date.now();
    while (!drained() && Date.now() - drainFrom < 60_000) await sleep(200);
    const drainMs = Date.now() - drainFrom;
    const local = { baseUrl, dev } as TestStack;
    const seen = new Map<string, Expected>();
    for (const id of counters) {
      const profile = await readProfile(local, id);
      seen.set(id, { updates: profile.status === 200 ? (profile.body.attributes.n as number) : 0, events: (await readTimeline(local, id)).length });
    }
    let stillThere = 0;
    for (const id of doomed.slice(toDelete.length)) if ((await readProfile(local, id)).status !== 404) stillThere++;
    const onFailure = existsSync(join(dataDir, 'on-failure.jsonl')) ? readFileSync(join(dataDir, 'on-failure.jsonl'), 'utf8').trim() : '';

    const counts = deliveryCounts(expected, seen);
    console.log(
      `load: held ${reached} records/s for ${Math.round(holdSeconds)} s (ramp found ${held}/s; rate from ${Math.min(...rates)} to ${Math.max(...rates)}/s), ` +
        `p50 ${Math.round(percentile(holdLatencies, 50))} ms p99 ${Math.round(percentile(holdLatencies, 99))} ms over ${holdLatencies.length} requests, ` +
        `${errors} errors, drained in ${drainMs} ms`,
    );
    console.log(formatCounts(`load, ${receiptedRecords} records receipted (${DOOMED - toDelete.length} profile deletes, ${stillThere} still there)`, counts));
    expect(errors).toBe(0);
    expect(onFailure).toBe('');
    expect(counts.duplicated).toBe(0);
    expect(counts.lost).toBe(0);
    expect(stillThere).toBe(0);
  });
});
