/**
 * Exactly once across a crash: the local stack is killed with SIGKILL while
 * 10,000 mixed records are being ingested, restarted on the same data, and
 * the client re-sends what it got no receipt for (same insert ids). Every
 * record must then be applied once: none lost, none twice. The players are
 * attributed to an affiliate first and the events are bets, so the affiliate
 * funnel must come out exact too. A segment of the players with exactly the
 * most bets of any must come out exact as well: those players members, each
 * with one urm_segment_entered on its timeline, the others neither.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { DynamoSegmentStore } from '../../functions/adapters/dynamo-segment-store';
import { tables } from '../../functions/manifest/resources';
import type { DevConfig } from '../../lib/local/demo-app';
import { localClients } from '../../lib/local/stack';
import { funnelOf, setAffiliate, totalsOf } from '../support/funnel';
import { request } from '../support/http';
import { endpointsOf, freePorts, killHard, startLocalProcess, waitFor, type LocalProcess } from '../support/local-process';
import type { TestStack } from '../support/local-stack';
import { readProfile, readTimeline, until } from '../support/profiles';
import { readyDefinition } from '../support/segment-state';
import { StreamReceipts, type ReceiptEntry } from '../support/stream-drain';

const PROFILES = 40;
const REQUESTS = 40;
const PER_REQUEST = 250;

interface Batch {
  path: '/profiles' | '/events';
  records: Record<string, unknown>[];
  receipted: boolean;
}

const dataDir = mkdtempSync(join(tmpdir(), 'urm-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function workload(dev: DevConfig, run: string): Batch[] {
  return Array.from({ length: REQUESTS }, (_, r) => {
    const path = r % 2 === 0 ? '/profiles' : '/events';
    const records = Array.from({ length: PER_REQUEST }, (_, i) => {
      const profile_id = `crash-${run}-${(r * PER_REQUEST + i) % PROFILES}`;
      const base = { app_id: dev.app_id, profile_id, urm_date_time: '2026-11-21T10:00:00Z', urm_insert_id: randomUUID() };
      // Bet is a money event of the demo application: 0.1 each, in its main currency.
      return path === '/profiles' ? { ...base, urm_add: { count: 1 } } : { ...base, event: 'Bet', amount: 0.1, currency: 'EUR', n: i };
    });
    return { path, records, receipted: false };
  });
}

/** Sends every batch not yet receipted, two at a time; stops quietly when the stack dies. */
async function sendAll(baseUrl: string, key: string, batches: Batch[], onReceipt: (entries: ReceiptEntry[]) => void): Promise<void> {
  const queue = batches.filter((b) => !b.receipted);
  const worker = async () => {
    for (let batch = queue.shift(); batch; batch = queue.shift()) {
      try {
        const response = await request(baseUrl, 'POST', batch.path, { key, body: batch.records });
        if (response.status === 200 && response.body.FailedRecordCount === 0) {
          batch.receipted = true;
          onReceipt(response.body.Records);
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
    await waitFor(() => running.output().includes('urm local stack ready'), 'the stack', 180_000);
    const dev = JSON.parse(readFileSync(join(dataDir, 'dev.json'), 'utf8')) as DevConfig;
    const run = randomUUID().slice(0, 8);
    const batches = workload(dev, run);
    const affiliateId = `aff-crash-${run}`;
    // Each player's attribution: a profile record and an event on its timeline, before the workload.
    for (let p = 0; p < PROFILES; p++) await setAffiliate({ baseUrl, dev } as TestStack, { profile_id: `crash-${run}-${p}`, urm_aff_id: affiliateId });
    // Players with exactly the most bets: a count lost or counted twice takes a player out (or, rarely, in).
    const betsOf = new Map<string, number>();
    for (const batch of batches.filter((b) => b.path === '/events')) {
      for (const record of batch.records) betsOf.set(record.profile_id as string, (betsOf.get(record.profile_id as string) ?? 0) + 1);
    }
    const mostBets = Math.max(...betsOf.values());
    const topBettors = [...betsOf].filter(([, n]) => n === mostBets).map(([id]) => id);
    const segments = new DynamoSegmentStore(localClients(endpointsOf(env)).document, tables.segments.localName);
    const segmentId = `most-bets-${run}`;
    await segments.create(
      readyDefinition(dev.app_id, segmentId, { events: { name: 'Bet' }, measure: 'count', op: 'equals', value: mostBets }, { name: 'Most bets' }),
    );

    const receipts = new StreamReceipts(join(dataDir, 'checkpoints.json'));
    let receipted = 0;
    let killed: Promise<void> | undefined;
    await sendAll(baseUrl, dev.server_key, batches, (entries) => {
      receipts.note(entries);
      if (++receipted === Math.floor(REQUESTS / 3)) killed = killHard(running, env);
    });
    expect(killed).toBeTruthy();
    await killed;
    const receiptedBeforeCrash = batches.filter((b) => b.receipted).length * PER_REQUEST;

    running = startLocalProcess(env);
    try {
      await waitFor(() => running.output().includes('urm local stack ready'), 'the restart', 180_000).catch((error) => {
        throw new Error(`${error.message}; the stack said:\n${running.output().slice(-3000)}`);
      });
      await sendAll(baseUrl, dev.server_key, batches, (entries) => receipts.note(entries));
      expect(batches.every((b) => b.receipted)).toBeTruthy();

      const expected = new Map<string, { updates: number; events: number }>();
      // The attribution event of each player is on its timeline too.
      for (let p = 0; p < PROFILES; p++) expected.set(`crash-${run}-${p}`, { updates: 0, events: 1 });
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
          // The segment engine's events are checked apart.
          const events = timeline.filter((event) => !String(event.event).startsWith('urm_segment_')).length;
          seen.set(profileId, { updates: profile.status === 200 ? (profile.body.attributes.count as number) : 0, events });
        }
        return seen;
      };
      // Once every consumer has passed every receipted record (the re-sent ones come after anything written unreceipted
      // before the crash), nothing left on the stream can add or repeat a write: what the API shows now is final.
      await receipts.waitUntilDrained(240_000).catch((error) => {
        throw new Error(`${error.message}; the stack said:\n${running.output().slice(-4000)}`);
      });
      const seen = await applied();

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
        `crash recovery: sent ${REQUESTS * PER_REQUEST} (+${PROFILES} attributions), receipted before the crash ${receiptedBeforeCrash}, ` +
          `applied ${appliedCount}, duplicated ${duplicated}, lost ${lost}`,
      );
      expect(receiptedBeforeCrash > 0 && receiptedBeforeCrash < REQUESTS * PER_REQUEST).toBeTruthy();
      expect(duplicated).toBe(0);
      expect(lost).toBe(0);
      expect(appliedCount).toBe(REQUESTS * PER_REQUEST + PROFILES);

      const bets = batches.filter((b) => b.path === '/events').reduce((n, b) => n + b.records.length, 0);
      const funnel = totalsOf(await funnelOf(endpointsOf(env)).reader.days(dev.app_id, affiliateId, '2000-01-01', '2100-01-01'));
      console.log(`crash recovery, funnel: ${funnel.registrations} registrations, bets ${funnel.bets} (expected ${bets / 10})`);
      expect(funnel).toEqual(expect.objectContaining({ registrations: PROFILES, bets: String(bets / 10), ftds: 0, deposits: '0' }));

      // The engine's events go on the stream after the records that made them: wait for them (bounded), then the exact set.
      const segmentEvents = async () => {
        const found: string[] = [];
        for (const profileId of expected.keys()) {
          for (const event of await readTimeline(stack, profileId)) {
            if (event.attributes.segment_id === segmentId) found.push(`${profileId} ${event.event}`);
          }
        }
        return found.sort();
      };
      const entered = topBettors.map((id) => `${id} urm_segment_entered`).sort();
      // The restarted stack has new credentials.
      const segmentsNow = new DynamoSegmentStore(localClients(endpointsOf(env)).document, tables.segments.localName);
      const members = async () => (await segmentsNow.members(dev.app_id, segmentId, 100)).members.map((member) => member.profile_id).sort();
      await until(members, (found) => found.length >= topBettors.length, 'the top bettors to enter the segment', 60_000);
      await until(segmentEvents, (found) => found.length >= entered.length, 'their entered events on the timeline', 60_000);
      console.log(`crash recovery, segment: ${topBettors.length} players with ${mostBets} bets`);
      expect(await members()).toEqual([...topBettors].sort());
      expect(await segmentsNow.size(dev.app_id, segmentId)).toBe(topBettors.length);
      expect(await segmentEvents()).toEqual(entered);
    } finally {
      running.child.kill('SIGTERM');
      await running.exited;
    }
  }, 420_000);
});
