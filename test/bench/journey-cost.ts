/**
 * Figure 14's measurement: what a journey entry costs in calls. On the local
 * stack's tables, a live 3-step journey "BenchSignup → wait a day → email,
 * goal: a Deposit", run by the journeys consumer and the timers' handler in
 * this process with their AWS clients counted: URM_BENCH_JOURNEY_ENTRIES
 * players (200) enter, half deposit during the wait (the goal: converted),
 * and the rest get the email when this process's clock for the application
 * is moved a day on (per process, so the stack's own timers never take
 * them). The entry events are handed to the consumer directly, as Lambda
 * would, so the stack's consumer never sees them either: every call is
 * counted here. run.ts prices the counts (cost.ts, journeyCostPerMillion).
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Context, KinesisStreamEvent, ScheduledEvent } from 'aws-lambda';
import { streamConsumers } from '../../functions/manifest/operations';
import { CLOCK_OFFSETS_ENV } from '../../functions/runtime/clock';
import { functionEnvironment } from '../../lib/local/stack';
import { kinesisEvent, sequenceNumbers } from '../support/kinesis-event';
import { context } from '../support/lambda';
import { addEmailTemplate, campaignApp, countCalls, liveJourney, seedPlayers } from './campaigns';
import { countDynamoCalls, report, round, withLocalStack } from './support';

const ENTRIES = Math.min(2000, Number(process.env.URM_BENCH_JOURNEY_ENTRIES ?? 200));
const DAY = 86_400_000;
const BATCH = streamConsumers.find((c) => c.id === 'RunJourneys')!.batchSize;

export interface JourneyCostResult {
  entries: number;
  converted: number;
  mailed: number;
  consumerBatchSize: number;
  /** Per entry, everything the journey did for it: entry, goal or timer, send, exit. */
  perEntry: {
    dynamoCalls: number;
    readUnits: number;
    writeUnits: number;
    /** Records the journey wrote to the stream (lifecycle and message events), each then stored as an event. */
    streamRecords: number;
    emails: number;
  };
  byCommand: Record<string, number>;
  /** Consumer time per batch of `consumerBatchSize` entry or goal events, in this process. */
  consumerMsPerBatch: number;
  /** Timers' handler time per timer fired (and its send), in this process. */
  timerMsPerFired: number;
}

type Consumer = (event: KinesisStreamEvent, context: Context) => Promise<unknown>;
type Scheduled = (event: ScheduledEvent, context: Context) => Promise<{ due: number; taken: number; sent: number }>;

async function main(): Promise<JourneyCostResult> {
  return withLocalStack(async (stack) => {
    const app = await campaignApp(stack, { time_zone: 'UTC' });
    await addEmailTemplate(app, 'nudge', 'Your welcome bonus waits');
    await liveJourney(app, 'first-deposit', {
      entry: { event: 'BenchSignup' },
      goal: { event: 'Deposit' },
      steps: [
        { id: 'wait-1d', type: 'wait', duration: { days: 1 }, next: 'nudge' },
        { id: 'nudge', type: 'send', channel: 'email', template_id: 'nudge' },
      ],
    });
    const run = randomUUID().slice(0, 6);
    const ids = Array.from({ length: ENTRIES }, (_, i) => `jc-${run}-${i}`);
    await seedPlayers(stack, app, ids);

    Object.assign(process.env, functionEnvironment(stack.endpoints), { POWERTOOLS_LOG_LEVEL: 'ERROR' });
    const { dynamo } = await import('../../functions/adapters/clients/dynamo');
    const { kinesis } = await import('../../functions/adapters/clients/kinesis');
    const { sesv2 } = await import('../../functions/adapters/clients/sesv2');
    const consumer = (await import('../../functions/consumers/run-journeys/handler')).handler as unknown as Consumer;
    const timers = (await import('../../functions/scheduled/journey-timers/handler')).handler as unknown as Scheduled;
    const dynamoCounter = countDynamoCalls(dynamo);
    const streamCounter = countCalls(kinesis);
    const sesCounter = countCalls(sesv2);

    let sequence = 1n;
    let consumerMs = 0;
    let batches = 0;
    const deliver = async (records: Record<string, unknown>[]) => {
      for (let start = 0; start < records.length; start += BATCH) {
        const slice = records.slice(start, start + BATCH);
        const seqs = sequenceNumbers(slice.length, sequence);
        sequence += BigInt(slice.length);
        const started = performance.now();
        const answer = (await consumer(
          kinesisEvent(slice.map((record, i) => ({ kind: 'event', record, sequenceNumber: seqs[i] }))),
          context('RunJourneysFunction', 60_000),
        )) as { batchItemFailures?: unknown[] };
        consumerMs += performance.now() - started;
        batches++;
        if ((answer?.batchItemFailures ?? []).length > 0) throw new Error('the journeys consumer failed records');
      }
    };
    const event = (profileId: string, name: string, properties: Record<string, unknown> = {}) => ({
      app_id: app.appId,
      profile_id: profileId,
      event: name,
      urm_insert_id: randomUUID(),
      urm_date_time: new Date().toISOString(),
      ...properties,
    });

    await deliver(ids.map((id) => event(id, 'BenchSignup')));
    const converting = ids.filter((_, i) => i % 2 === 0);
    await deliver(converting.map((id) => event(id, 'Deposit', { amount: 20, currency: 'EUR' })));

    // A day and a minute on, for this process only: the timers are due here and nowhere else.
    process.env[CLOCK_OFFSETS_ENV] = JSON.stringify({ [app.appId]: DAY + 60_000 });
    let timerMs = 0;
    let fired = 0;
    for (let runs = 0; ; runs++) {
      if (runs >= 20) throw new Error('timers still due after 20 runs');
      const started = performance.now();
      const counts = await timers({} as ScheduledEvent, context('JourneyTimersFunction', 60_000));
      timerMs += performance.now() - started;
      fired += counts.taken;
      if (counts.due === 0) break;
    }
    const mailed = sesCounter.counts.calls;
    if (mailed !== ids.length - converting.length) throw new Error(`${mailed} emails, expected ${ids.length - converting.length}`);
    const per = (n: number) => round(n / ENTRIES, 3);
    const { counts } = dynamoCounter;
    return {
      entries: ENTRIES,
      converted: converting.length,
      mailed,
      consumerBatchSize: BATCH,
      perEntry: {
        dynamoCalls: per(counts.calls),
        readUnits: per(counts.readUnits),
        writeUnits: per(counts.writeUnits),
        streamRecords: per(streamCounter.counts.records),
        emails: per(mailed),
      },
      byCommand: counts.byCommand,
      consumerMsPerBatch: round(consumerMs / batches, 1),
      timerMsPerFired: round(timerMs / Math.max(1, fired), 1),
    };
  });
}

// Run as a figure's process; run.ts imports the type only.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  report(await main());
  process.exit(0);
}
