/**
 * Figure 12, broadcast throughput: on the local stack (its own process, as
 * `npm start`), a broadcast "now" to a segment of URM_BENCH_BROADCAST_PLAYERS
 * players (500: locally the sender does about 10 a second, so the issue's
 * 10,000 takes some 20 minutes; set it for a run of its own), the
 * application's rate at its maximum, every message through the gate;
 * messages/s from the start to the last mail in the local SES's store.
 * Players come through bulk POST /profiles and become members through the
 * segment engine (a ready segment on an attribute, before they arrive).
 * Baseline in the same run: the mailer alone, SendEmail to the same local SES
 * with the sender's own concurrency.
 *
 * And, for figure 13, what a message costs in calls: a second, smaller
 * broadcast run by the sender's handler in this process, with its AWS
 * clients counted. It is scheduled a day ahead and this process's clock for
 * the application moved a day on (URM_CLOCK_OFFSETS is per process), so the
 * stack's own sender never takes it and every call is counted here.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { Context, ScheduledEvent } from 'aws-lambda';
import pLimit from 'p-limit';
import { DynamoSegmentStore } from '../../functions/adapters/dynamo-segment-store';
import { messagingLimits } from '../../functions/domain/send-gate';
import { tables } from '../../functions/manifest/resources';
import { CLOCK_OFFSETS_ENV } from '../../functions/runtime/clock';
import { functionEnvironment, localCredentials } from '../../lib/local/stack';
import { consoleRequest, consoleSignIn } from '../support/console';
import { context } from '../support/lambda';
import { waitFor } from '../support/local-process';
import { readyDefinition } from '../support/segment-state';
import { addEmailTemplate, campaignApp, countCalls, mailbox, seedPlayers, type CampaignApp } from './campaigns';
import { countDynamoCalls, report, round, withLocalStack, type BenchStack, type DynamoCounts } from './support';

const PLAYERS = Math.min(100_000, Number(process.env.URM_BENCH_BROADCAST_PLAYERS ?? 500));
const COUNTED = Math.min(2000, Number(process.env.URM_BENCH_BROADCAST_COUNTED ?? 200));
const RATE = messagingLimits.broadcastRateMax;
const DAY = 86_400_000;

export interface BroadcastThroughputResult {
  players: number;
  rate: number;
  /** Mails in the store ÷ seconds from the start's answer to the last of them. */
  messagesPerSecond: number;
  seconds: number;
  /** Seconds from the start's answer to the first mail: the sender's next run, the snapshot. */
  firstMailSeconds: number;
  mailerAlone: { messages: number; messagesPerSecond: number; concurrency: number };
  seedSeconds: number;
  counted: {
    messages: number;
    dynamo: {
      callsPerMessage: number;
      readUnitsPerMessage: number;
      writeUnitsPerMessage: number;
      byCommand: Record<string, number>;
      /** Mean milliseconds a call of each command waited, locally. */
      meanMsByCommand: Record<string, number>;
    };
    streamRecordsPerMessage: number;
    sesCallsPerMessage: number;
    /** Messages/s of this process's runs, from the first run's start to the last SendEmail. */
    messagesPerSecond: number;
    /** Milliseconds spent waiting on DynamoDB per message, summed over the concurrent sends. */
    dynamoMsPerMessage: number;
    /** Handler time per message (the billed duration's stand-in), including the runs' wait for the last recipients to settle. */
    msPerMessage: number;
  };
}

async function segmentOf(app: CampaignApp, segmentId: string, cohort: string): Promise<void> {
  const segments = new DynamoSegmentStore(app.document, tables.segments.localName);
  await segments.create(readyDefinition(app.appId, segmentId, { attribute: 'bench_cohort', op: 'equals', value: cohort }, { updated_by: 'bench' }));
}

async function sizeReached(app: CampaignApp, segmentId: string, size: number): Promise<void> {
  const segments = new DynamoSegmentStore(app.document, tables.segments.localName);
  await waitFor(async () => (await segments.size(app.appId, segmentId)) >= size, `segment ${segmentId} at ${size} members`, 120_000);
}

/** SendEmail straight to the local SES, as many at once as the sender sends: the floor under any sender. */
async function mailerAlone(stack: BenchStack, messages: number, concurrency: number): Promise<BroadcastThroughputResult['mailerAlone']> {
  const ses = new SESv2Client({ endpoint: stack.endpoints.ses_endpoint, region: stack.endpoints.region, credentials: localCredentials(stack.endpoints) });
  const limit = pLimit(concurrency);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: messages }, (_, i) =>
      limit(() =>
        ses.send(
          new SendEmailCommand({
            FromEmailAddress: 'bench@example.com',
            Destination: { ToAddresses: [`mailer-${i}@example.com`] },
            Content: { Simple: { Subject: { Data: 'Mailer alone' }, Body: { Html: { Data: '<p>Hi there, a bonus waits.</p>' } } } },
          }),
        ),
      ),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  ses.destroy();
  return { messages, messagesPerSecond: Math.round(messages / seconds), concurrency };
}

async function main(): Promise<BroadcastThroughputResult> {
  return withLocalStack(async (stack) => {
    const { endpoints, dev } = stack;
    if (!dev.mail_url) throw new Error('the local stack has no mail_url');
    const app = await campaignApp(stack, { time_zone: 'UTC', broadcast_rate: RATE });
    const run = randomUUID().slice(0, 6);
    const subject = `Weekend reload ${run}`;
    await addEmailTemplate(app, 'reload', subject);
    await addEmailTemplate(app, 'counted', `Counted ${run}`);
    await segmentOf(app, 'everyone', 'all');
    await segmentOf(app, 'counted', 'counted');

    const seedStarted = performance.now();
    const ids = Array.from({ length: PLAYERS }, (_, i) => `bc-${run}-${i}`);
    await seedPlayers(stack, app, ids, { bench_cohort: 'all' });
    await sizeReached(app, 'everyone', PLAYERS);
    const seedSeconds = round((performance.now() - seedStarted) / 1000, 1);
    await seedPlayers(
      stack,
      app,
      Array.from({ length: COUNTED }, (_, i) => `cn-${run}-${i}`),
      { bench_cohort: 'counted' },
    );
    await sizeReached(app, 'counted', COUNTED);

    const { broadcastConcurrency } = await import('../../functions/scheduled/send-broadcasts/core');
    const mailer = await mailerAlone(stack, Math.min(PLAYERS, 2000), broadcastConcurrency(RATE));

    const session = await consoleSignIn(endpoints.base_url, { appId: app.appId, serverKey: app.serverKey });
    const api = (method: 'GET' | 'POST', path: string, body?: unknown) => consoleRequest(endpoints.base_url, session, method, path, body);
    const broadcast = (id: string, templateId: string, segmentId: string, schedule: unknown) =>
      api('POST', '/console/api/broadcasts', { broadcast_id: id, name: id, template_id: templateId, segment_id: segmentId, purpose: 'marketing', schedule });
    if ((await broadcast('reload', 'reload', 'everyone', { kind: 'now' })).status !== 201) throw new Error('the broadcast was refused');
    const mail = mailbox(dev.mail_url);
    await mail.read();
    const started = await api('POST', '/console/api/broadcasts/reload/start');
    if (started.status !== 200) throw new Error(`start answered ${started.status}`);
    const t0 = performance.now();
    let first: number | undefined;
    let last = t0;
    let count = 0;
    const budget = Number(process.env.URM_BENCH_BUDGET_MS ?? 400_000) - (performance.now() - processStarted) - 30_000;
    while (count < PLAYERS) {
      if (performance.now() - t0 > budget) throw new Error(`${count} of ${PLAYERS} mails within the figure's budget`);
      const mails = await mail.read();
      const now = performance.now();
      const ours = [...mails.values()].filter((m) => m.subject === subject).length;
      if (ours > 0 && first === undefined) first = now;
      if (ours > count) last = now;
      count = ours;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const seconds = (last - t0) / 1000;

    const counted = await countedBroadcast(stack, app, broadcast, api);
    return {
      players: PLAYERS,
      rate: RATE,
      messagesPerSecond: Math.round(PLAYERS / seconds),
      seconds: round(seconds, 1),
      firstMailSeconds: round(((first ?? last) - t0) / 1000, 2),
      mailerAlone: mailer,
      seedSeconds,
      counted,
    };
  });
}

type Api = (method: 'GET' | 'POST', path: string, body?: unknown) => ReturnType<typeof consoleRequest>;

async function countedBroadcast(
  stack: BenchStack,
  app: CampaignApp,
  broadcast: (id: string, templateId: string, segmentId: string, schedule: unknown) => ReturnType<typeof consoleRequest>,
  api: Api,
): Promise<BroadcastThroughputResult['counted']> {
  // A day ahead: only this process, whose clock for the application is a day on, finds it due.
  const at = new Date(Date.now() + DAY / 2).toISOString();
  if ((await broadcast('counted', 'counted', 'counted', { kind: 'at', at })).status !== 201) throw new Error('the counted broadcast was refused');
  if ((await api('POST', '/console/api/broadcasts/counted/start')).status !== 200) throw new Error('the counted broadcast did not start');
  Object.assign(process.env, functionEnvironment(stack.endpoints), {
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    [CLOCK_OFFSETS_ENV]: JSON.stringify({ [app.appId]: DAY }),
  });
  const { dynamo } = await import('../../functions/adapters/clients/dynamo');
  const { kinesis } = await import('../../functions/adapters/clients/kinesis');
  const { sesv2 } = await import('../../functions/adapters/clients/sesv2');
  const handler = (await import('../../functions/scheduled/send-broadcasts/handler')).handler as unknown as (
    event: ScheduledEvent,
    context: Context,
  ) => Promise<{ sent: number }>;
  const dynamoCounter = countDynamoCalls(dynamo);
  const streamCounter = countCalls(kinesis);
  const sesCounter = countCalls(sesv2);
  const status = async () => (await api('GET', '/console/api/broadcasts/counted')).body.broadcast as { status: string; counts: { sent: number } };
  let ms = 0;
  const firstRun = performance.now();
  for (let runs = 0; (await status()).status !== 'done'; runs++) {
    if (runs >= 10) throw new Error('the counted broadcast was not done after 10 runs of the sender');
    const started = performance.now();
    await handler({} as ScheduledEvent, context('SendBroadcastsFunction', 60_000));
    ms += performance.now() - started;
  }
  const messages = (await status()).counts.sent;
  if (messages !== COUNTED) throw new Error(`the counted broadcast sent ${messages} of ${COUNTED}`);
  const per = (n: number) => round(n / messages, 3);
  const counts: DynamoCounts = dynamoCounter.counts;
  return {
    messages,
    dynamo: {
      callsPerMessage: per(counts.calls),
      readUnitsPerMessage: per(counts.readUnits),
      writeUnitsPerMessage: per(counts.writeUnits),
      byCommand: counts.byCommand,
      meanMsByCommand: Object.fromEntries(Object.entries(counts.msByCommand).map(([command, ms]) => [command, round(ms / counts.byCommand[command], 1)])),
    },
    streamRecordsPerMessage: per(streamCounter.counts.records),
    sesCallsPerMessage: per(sesCounter.counts.calls),
    messagesPerSecond: Math.round(messages / ((sesCounter.counts.lastAt - firstRun) / 1000)),
    dynamoMsPerMessage: round(Object.values(counts.msByCommand).reduce((sum, v) => sum + v, 0) / messages, 1),
    msPerMessage: round(ms / messages, 2),
  };
}

const processStarted = performance.now();

// Run as a figure's process; run.ts imports the type only.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  report(await main());
  process.exit(0);
}
