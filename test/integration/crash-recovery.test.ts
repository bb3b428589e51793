/**
 * Exactly once across a crash: the local stack is killed with SIGKILL while
 * 10,000 mixed records are being ingested, restarted on the same data, and
 * the client re-sends what it got no receipt for (same insert ids). Every
 * record must then be applied once: none lost, none twice.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { DevConfig } from '../../lib/local/demo-app';
import { request } from '../support/http';
import { freePorts, killHard, startLocalProcess, waitFor, type LocalProcess } from '../support/local-process';
import type { TestStack } from '../support/local-stack';
import { readProfile, readTimeline } from '../support/profiles';

const PROFILES = 40;
const REQUESTS = 40;
const PER_REQUEST = 250;

interface Batch {
  path: '/profiles' | '/events';
  records: Record<string, unknown>[];
  receipted: boolean;
}

const dataDir = mkdtempSync(join(tmpdir(), 'urm-crash-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

function workload(dev: DevConfig, run: string): Batch[] {
  return Array.from({ length: REQUESTS }, (_, r) => {
    const path = r % 2 === 0 ? '/profiles' : '/events';
    const records = Array.from({ length: PER_REQUEST }, (_, i) => {
      const profile_id = `crash-${run}-${(r * PER_REQUEST + i) % PROFILES}`;
      const base = { app_id: dev.app_id, profile_id, urm_date_time: '2026-11-21T10:00:00Z', urm_insert_id: randomUUID() };
      return path === '/profiles' ? { ...base, urm_add: { count: 1 } } : { ...base, event: 'spin', n: i };
    });
    return { path, records, receipted: false };
  });
}

/** Sends every batch not yet receipted, two at a time; stops quietly when the stack dies. */
async function sendAll(baseUrl: string, key: string, batches: Batch[], onReceipt: () => void): Promise<void> {
  const queue = batches.filter((b) => !b.receipted);
  const worker = async () => {
    for (let batch = queue.shift(); batch; batch = queue.shift()) {
      try {
        const response = await request(baseUrl, 'POST', batch.path, { key, body: batch.records });
        if (response.status === 200 && response.body.FailedRecordCount === 0) {
          batch.receipted = true;
          onReceipt();
        }
      } catch {
        return; // the stack is gone: this batch has no receipt and will be re-sent
      }
    }
  };
  await Promise.all([worker(), worker()]);
}

describe('a crash in the middle of ingestion', () => {
  test('SIGKILL of the local stack loses and repeats nothing of 10,000 records', async () => {
    const env = { ...(await freePorts()), URM_DATA_DIR: dataDir };
    const baseUrl = `http://127.0.0.1:${env.PORT}`;
    let running: LocalProcess = startLocalProcess(env);
    await waitFor(() => running.output().includes('urm local stack ready'), 'the stack');
    const dev = JSON.parse(readFileSync(join(dataDir, 'dev.json'), 'utf8')) as DevConfig;
    const batches = workload(dev, randomUUID().slice(0, 8));

    let receipts = 0;
    let killed: Promise<void> | undefined;
    await sendAll(baseUrl, dev.server_key, batches, () => {
      if (++receipts === Math.floor(REQUESTS / 3)) killed = killHard(running, env);
    });
    assert.ok(killed, 'the stack was killed mid-ingestion');
    await killed;
    const receiptedBeforeCrash = batches.filter((b) => b.receipted).length * PER_REQUEST;

    running = startLocalProcess(env);
    try {
      await waitFor(() => running.output().includes('urm local stack ready'), 'the restart').catch((error) => {
        throw new Error(`${error.message}; the stack said:\n${running.output().slice(-3000)}`);
      });
      await sendAll(baseUrl, dev.server_key, batches, () => {});
      assert.ok(batches.every((b) => b.receipted), 'every batch receipted after the restart');

      const expected = new Map<string, { updates: number; events: number }>();
      for (const batch of batches) {
        for (const record of batch.records) {
          const counts = expected.get(record.profile_id as string) ?? { updates: 0, events: 0 };
          if (batch.path === '/profiles') counts.updates++;
          else counts.events++;
          expected.set(record.profile_id as string, counts);
        }
      }
      const stack = { baseUrl, dev } as TestStack;
      const applied = async () => {
        const seen = new Map<string, { updates: number; events: number }>();
        for (const profileId of expected.keys()) {
          const profile = await readProfile(stack, profileId);
          const timeline = await readTimeline(stack, profileId);
          seen.set(profileId, { updates: profile.status === 200 ? (profile.body.attributes.count as number) : 0, events: timeline.length });
        }
        return seen;
      };
      let seen = await applied();
      const settled = () => [...expected].every(([id, e]) => seen.get(id)!.updates >= e.updates && seen.get(id)!.events >= e.events);
      const deadline = Date.now() + 180_000;
      while (!settled() && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        seen = await applied();
      }
      // A moment more, so a late duplicate would show.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      seen = await applied();

      let lost = 0;
      let duplicated = 0;
      let appliedCount = 0;
      for (const [id, e] of expected) {
        const s = seen.get(id)!;
        appliedCount += Math.min(s.updates, e.updates) + Math.min(s.events, e.events);
        lost += Math.max(0, e.updates - s.updates) + Math.max(0, e.events - s.events);
        duplicated += Math.max(0, s.updates - e.updates) + Math.max(0, s.events - e.events);
      }
      console.log(
        `crash recovery: sent ${REQUESTS * PER_REQUEST}, receipted before the crash ${receiptedBeforeCrash}, ` +
          `applied ${appliedCount}, duplicated ${duplicated}, lost ${lost}`,
      );
      assert.ok(receiptedBeforeCrash > 0 && receiptedBeforeCrash < REQUESTS * PER_REQUEST, 'the crash came mid-stream');
      assert.equal(duplicated, 0);
      assert.equal(lost, 0);
      assert.equal(appliedCount, REQUESTS * PER_REQUEST);
    } finally {
      running.child.kill('SIGTERM');
      await running.exited;
    }
  });
});
