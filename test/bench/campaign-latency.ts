/**
 * Figure 11, event to email: on the local stack (its own process, as `npm
 * start`), a live journey "first deposit → send email now"; for each player
 * in turn, from the write receipt of POST /events (their first Deposit) to
 * the welcome mail in the local SES's store, polled every 20 ms; against the
 * same event's own arrival on the player's timeline, in the same run (figure
 * 10's "applied"). p50 and p95 over URM_BENCH_JOURNEY_PLAYERS players (40).
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { request } from '../support/http';
import { addEmailTemplate, addressOf, campaignApp, liveJourney, mailbox, seedPlayers } from './campaigns';
import { percentile, report, round, withLocalStack, type BenchRow } from './support';

const PLAYERS = Math.min(500, Number(process.env.URM_BENCH_JOURNEY_PLAYERS ?? 40));
/** Players measured first and left out: the first send loads the sender's code and warms its clients. */
const WARM_UP = 2;
const POLL_MS = 20;
const GIVE_UP_MS = 20_000;
/** The target for the local stack. */
export const TARGET_P95_MS = 2000;

export interface CampaignLatencyResult {
  players: number;
  mailed: { p50Ms: number; p95Ms: number };
  ownEvent: { p50Ms: number; p95Ms: number };
  /** p50 of mailed ÷ p50 of the event's own timeline write. */
  ratio: number;
  /** mailed minus own event, per player: the journey's share (consumer poll, entry, gate, send). */
  journeyShare: { p50Ms: number; p95Ms: number };
}

async function main(): Promise<CampaignLatencyResult> {
  return withLocalStack(async (stack) => {
    const { endpoints, dev } = stack;
    const app = await campaignApp(stack, { time_zone: 'UTC' });
    await addEmailTemplate(app, 'welcome', 'Welcome aboard');
    await liveJourney(app, 'welcome', { entry: { first_deposit: true }, steps: [{ id: 'welcome', type: 'send', channel: 'email', template_id: 'welcome' }] });
    const run = randomUUID().slice(0, 6);
    const ids = Array.from({ length: PLAYERS + WARM_UP }, (_, i) => `e2m-${run}-${i}`);
    await seedPlayers(stack, app, ids);
    if (!dev.mail_url) throw new Error('the local stack has no mail_url');
    const mail = mailbox(dev.mail_url);

    const mailed: number[] = [];
    const own: number[] = [];
    for (const [i, player] of ids.entries()) {
      const body = [
        {
          app_id: app.appId,
          profile_id: player,
          event: 'Deposit',
          amount: 50,
          currency: 'EUR',
          urm_date_time: new Date().toISOString(),
          urm_insert_id: randomUUID(),
        },
      ];
      const response = await request(endpoints.base_url, 'POST', '/events', { key: app.serverKey, body });
      if (response.status !== 200) throw new Error(`POST /events answered ${response.status}`);
      const receipt = performance.now();
      const address = addressOf(player);
      let ownAt: number | undefined;
      let mailedAt: number | undefined;
      while (mailedAt === undefined || ownAt === undefined) {
        if (performance.now() - receipt > GIVE_UP_MS) throw new Error(`player ${i} got no welcome mail within ${GIVE_UP_MS} ms`);
        if (ownAt === undefined) {
          const page = await request(endpoints.base_url, 'GET', `/profiles/${player}/events?app_id=${app.appId}&limit=10`, { key: app.serverKey });
          const names: string[] = page.status === 200 ? page.body.events.map((event: { event: string }) => event.event) : [];
          if (names.includes('Deposit')) ownAt = performance.now();
        }
        if (mailedAt === undefined) {
          const mails = await mail.read();
          if ([...mails.values()].some((m) => m.destination.to.some((to) => to.includes(address)))) mailedAt = performance.now();
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      if (i < WARM_UP) continue;
      own.push(ownAt - receipt);
      mailed.push(mailedAt - receipt);
    }
    const p = (values: number[]) => ({ p50Ms: round(percentile(values, 50), 0), p95Ms: round(percentile(values, 95), 0) });
    return {
      players: PLAYERS,
      mailed: p(mailed),
      ownEvent: p(own),
      ratio: round(percentile(mailed, 50) / Math.max(1, percentile(own, 50)), 2),
      journeyShare: p(mailed.map((ms, i) => ms - own[i])),
    };
  });
}

export function campaignLatencyRows(r: CampaignLatencyResult): BenchRow[] {
  return [
    {
      figure: '11 event to email',
      measure: `ms from the write receipt of a first Deposit to the journey's mail in the local SES, p50 / p95 (${r.players} players, one at a time)`,
      value: `${r.mailed.p50Ms} / ${r.mailed.p95Ms}`,
      baseline: `${r.ownEvent.p50Ms} / ${r.ownEvent.p95Ms} (the event itself on the timeline)`,
      ratio: `${r.ratio} (p50 mail ÷ p50 event)`,
      target: `p95 ≤ ${TARGET_P95_MS}: ${r.mailed.p95Ms <= TARGET_P95_MS ? 'met' : 'not met'}`,
    },
    {
      figure: '11 event to email',
      measure: "the journey's share: mail minus the event's own arrival, per player, p50 / p95 ms",
      value: `${r.journeyShare.p50Ms} / ${r.journeyShare.p95Ms}`,
      baseline: '',
      ratio: '',
      target: '',
    },
  ];
}

// Run as a figure's process; run.ts imports only the rows above.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  report(await main());
  process.exit(0);
}
