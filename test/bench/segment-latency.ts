/**
 * Figure 9, how fast membership follows: on the local stack (its own process,
 * as `npm start`), an integrator's event that makes a new player enter a
 * segment; from the write receipt of POST /events to `urm_segment_entered`
 * on the player's timeline (GET /profiles/{id}/events, polled every 20 ms),
 * against the same event's own arrival on the timeline in the same run.
 * p50 and p95 of each over 30 players, one at a time.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { DynamoSegmentStore } from '../../functions/adapters/dynamo-segment-store';
import { tables } from '../../functions/manifest/resources';
import { localClients } from '../../lib/local/stack';
import { request } from '../support/http';
import { readyDefinition } from '../support/segment-state';
import { percentile, report, round, withLocalStack, type BenchRow } from './support';

const PLAYERS = Number(process.env.URM_BENCH_SEGMENT_PLAYERS ?? 30);
const POLL_MS = 20;
const GIVE_UP_MS = 20_000;

export interface SegmentLatencyResult {
  players: number;
  entered: { p50Ms: number; p95Ms: number };
  ownEvent: { p50Ms: number; p95Ms: number };
  /** p50 of entered ÷ p50 of the event's own timeline write. */
  ratio: number;
}

async function main(): Promise<SegmentLatencyResult> {
  return withLocalStack(async ({ dev, endpoints }) => {
    const segments = new DynamoSegmentStore(localClients(endpoints).document, tables.segments.localName);
    await segments.create(
      readyDefinition(dev.app_id, 'pinged', { events: { name: 'BenchPing' }, measure: 'count', op: 'gte', value: 1 }, { updated_by: 'bench' }),
    );
    const entered: number[] = [];
    const own: number[] = [];
    for (let i = 0; i < PLAYERS; i++) {
      const player = `latency-${randomUUID().slice(0, 8)}`;
      const body = [{ app_id: dev.app_id, profile_id: player, event: 'BenchPing', urm_date_time: new Date().toISOString(), urm_insert_id: randomUUID() }];
      const response = await request(endpoints.base_url, 'POST', '/events', { key: dev.server_key, body });
      if (response.status !== 200) throw new Error(`POST /events answered ${response.status}`);
      const receipt = performance.now();
      let ownAt: number | undefined;
      let enteredAt: number | undefined;
      while (enteredAt === undefined || ownAt === undefined) {
        if (performance.now() - receipt > GIVE_UP_MS) throw new Error(`${player} did not enter within ${GIVE_UP_MS} ms`);
        const page = await request(endpoints.base_url, 'GET', `/profiles/${player}/events?app_id=${dev.app_id}&limit=10`, { key: dev.server_key });
        const names: string[] = page.status === 200 ? page.body.events.map((event: { event: string }) => event.event) : [];
        const now = performance.now();
        if (ownAt === undefined && names.includes('BenchPing')) ownAt = now;
        if (enteredAt === undefined && names.includes('urm_segment_entered')) enteredAt = now;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      own.push(ownAt - receipt);
      entered.push(enteredAt - receipt);
    }
    const p = (values: number[]) => ({ p50Ms: round(percentile(values, 50), 0), p95Ms: round(percentile(values, 95), 0) });
    return { players: PLAYERS, entered: p(entered), ownEvent: p(own), ratio: round(percentile(entered, 50) / percentile(own, 50), 2) };
  });
}

export function segmentLatencyRows(r: SegmentLatencyResult): BenchRow[] {
  return [
    {
      figure: '10 segments',
      measure: `ms from the write receipt to urm_segment_entered on the timeline, p50 / p95 (${r.players} players, local stack)`,
      value: `${r.entered.p50Ms} / ${r.entered.p95Ms}`,
      baseline: `${r.ownEvent.p50Ms} / ${r.ownEvent.p95Ms} (the event itself on the timeline)`,
      ratio: `${r.ratio} (p50 entered ÷ p50 event)`,
      target: '',
    },
  ];
}

// Run as a figure's process; run.ts imports only the rows above.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  report(await main());
  process.exit(0);
}
