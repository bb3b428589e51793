/**
 * `npm run bench`: the figures of docs/performance.md, each with a
 * baseline measured in the same run (so the ratio holds on a noisy machine).
 * Prints a table and writes the same, with every raw measurement, to
 * .urm/bench.json. Benchmarks report; they fail only when a figure could not
 * be measured at all, and then only after every other figure was measured:
 * the table says which figure failed and why, and so does the last line.
 *
 * `npm run bench -- 4` (or several numbers) measures those figures alone and
 * writes .urm/bench-4.json; figure 6 (cost) is computed from 1 and 3, which it
 * runs, and figure 13 (a 1 M broadcast on paper) from 12.
 *
 * Each figure runs in its own Node process: a module mocked or configured
 * for one figure must not leak into the next.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../support/local-stack';
import { awsPrices } from './aws-prices';
import type { BroadcastThroughputResult } from './broadcast-throughput';
import { broadcastCapacityRows, broadcastRows, journeyCostRows } from './campaign-capacity';
import { campaignLatencyRows, type CampaignLatencyResult } from './campaign-latency';
import type { JourneyCostResult } from './journey-cost';
import { broadcastConcurrency } from '../../functions/scheduled/send-broadcasts/core';
import { messagingLimits } from '../../functions/domain/send-gate';
import { clickRows, type ClickResult } from './clicks';
import { consoleRows, type ConsoleResult } from './console';
import type { ColdStartResult } from './cold-start';
import type { ConsumerResult } from './consumer';
import { costPerMillion, streamFeePerMonth, type CostBreakdown } from './cost';
import type { EndToEndResult } from './end-to-end';
import type { FunnelResult } from './funnel';
import type { IngestHandlerResult } from './ingest-handler';
import type { PlayerSearchResult } from './player-search';
import { segmentLatencyRows, type SegmentLatencyResult } from './segment-latency';
import { segmentEngineRows, type SegmentEngineResult } from './segments';
import { round, type BenchRow } from './support';
import type { WebSdkResult } from './web-sdk';

const FIGURE_TIMEOUT_MS = 240_000;
/** What a figure that keeps to a budget (figure 4) may spend: its time limit less room to finish and report. */
const FIGURE_BUDGET_MS = FIGURE_TIMEOUT_MS - 60_000;

const figureNumbers = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14'];
const asked = process.argv.slice(2);
const unknown = asked.filter((number) => !figureNumbers.includes(number));
if (unknown.length > 0) {
  console.error(`npm run bench -- [figure …]: figures are ${figureNumbers.join(', ')}, not ${unknown.join(', ')}`);
  process.exit(2);
}
/** Whether this run measures figure `number`: all by default; the cost (6) needs 1 and 3, the 1 M broadcast (13) needs 12. */
const measures = (number: string) =>
  asked.length === 0 || asked.includes(number) || (asked.includes('6') && ['1', '3'].includes(number)) || (asked.includes('13') && number === '12');

interface Failed {
  error: string;
}
const skipped = Symbol('not asked for');
type Outcome<T> = T | Failed | typeof skipped;
const failed = (outcome: unknown): outcome is Failed => typeof outcome === 'object' && outcome !== null && 'error' in outcome;
const measured = <T>(outcome: Outcome<T>): outcome is T => outcome !== skipped && !failed(outcome);

async function figure<T>(number: string, script: string, timeoutMs = FIGURE_TIMEOUT_MS): Promise<Outcome<T>> {
  if (!measures(number)) return skipped;
  const dir = mkdtempSync(join(tmpdir(), 'urm-bench-'));
  const out = join(dir, 'result.json');
  process.stderr.write(`measuring ${script} …\n`);
  try {
    const { code, output, timedOut } = await new Promise<{ code: number | null; output: string; timedOut: boolean }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'test', 'bench', script)], {
        cwd: repoRoot,
        env: {
          URM_BENCH_BUDGET_MS: String(timeoutMs - (FIGURE_TIMEOUT_MS - FIGURE_BUDGET_MS)),
          ...process.env,
          URM_BENCH_OUT: out,
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
      child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, output, timedOut });
      });
    });
    const said = output.trim().split('\n').slice(-6).join(' | ');
    if (timedOut) return { error: `killed after ${timeoutMs / 1000} s, its time limit${said ? `; its last output: ${said}` : ''}` };
    if (code !== 0) return { error: `exited with ${code}: ${said}` };
    return JSON.parse(readFileSync(out, 'utf8')) as T;
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Row = BenchRow;

const kb = (bytes: number) => round(bytes / 1024, 1);
const usd = (value: number) => round(value, value < 1 ? 4 : 2);

async function main(): Promise<void> {
  const started = new Date();
  const ingest = await figure<IngestHandlerResult>('1', 'ingest-handler.ts');
  const endToEnd = await figure<EndToEndResult>('2', 'end-to-end.ts');
  const consumer = await figure<ConsumerResult>('3', 'consumer.ts');
  const coldStart = await figure<ColdStartResult>('4', 'cold-start.ts');
  const webSdk = await figure<WebSdkResult>('5', 'web-sdk.ts');
  const funnel = await figure<FunnelResult>('3', 'funnel.ts');
  const clicks = await figure<ClickResult>('7', 'clicks.ts');
  const consolePages = await figure<ConsoleResult>('8', 'console.ts');
  const search = await figure<PlayerSearchResult>('9', 'player-search.ts');
  const segmentEngine = await figure<SegmentEngineResult>('10', 'segments.ts');
  const segmentLatency = await figure<SegmentLatencyResult>('10', 'segment-latency.ts');
  const campaignLatency = await figure<CampaignLatencyResult>('11', 'campaign-latency.ts');
  // Locally the sender does about ten messages a second: its time limit grows with the players asked for.
  const broadcastTimeoutMs = FIGURE_TIMEOUT_MS + 150 * Number(process.env.URM_BENCH_BROADCAST_PLAYERS ?? 500);
  const broadcast = await figure<BroadcastThroughputResult>('12', 'broadcast-throughput.ts', broadcastTimeoutMs);
  const journeyCost = await figure<JourneyCostResult>('14', 'journey-cost.ts');

  const rows: Row[] = [];
  const missing = (name: string, outcome: Failed) =>
    rows.push({ figure: name, measure: 'not measured', value: outcome.error.slice(0, 200), baseline: '', ratio: '', target: '' });

  if (failed(ingest)) missing('1 ingest handler', ingest);
  else if (measured(ingest)) {
    rows.push({
      figure: '1 ingest handler',
      measure: 'records/s, POST /events, 500-record bodies',
      value: ingest.recordsPerSecond,
      baseline: `${ingest.floorRecordsPerSecond} (JSON.parse + stringify)`,
      ratio: `${ingest.ratio} (floor ÷ handler)`,
      target: '≤ 3',
    });
  }

  if (failed(endToEnd)) missing('2 local end to end', endToEnd);
  else if (measured(endToEnd)) {
    const { http, rawPutRecords: raw } = endToEnd;
    rows.push(
      {
        figure: '2 local end to end',
        measure: `records/s over HTTP (${endToEnd.connections} connections, ${endToEnd.seconds} s)`,
        value: http.recordsPerSecond,
        baseline: `${raw.recordsPerSecond} (raw PutRecords)`,
        ratio: `${endToEnd.ratio} (HTTP ÷ raw)`,
        target: '',
      },
      {
        figure: '2 local end to end',
        measure: 'p50 / p99 ms per 500-record request',
        value: `${http.p50Ms} / ${http.p99Ms}`,
        baseline: `${raw.p50Ms} / ${raw.p99Ms}`,
        ratio: `${round(http.p50Ms / Math.max(0.1, raw.p50Ms), 2)} (p50, HTTP ÷ raw)`,
        target: '',
      },
    );
    if (http.errors + raw.errors > 0)
      rows.push({ figure: '2 local end to end', measure: 'errors', value: http.errors, baseline: raw.errors, ratio: '', target: '0' });
  }

  if (failed(consumer)) missing('3 consumer', consumer);
  else if (measured(consumer)) {
    for (const c of consumer.profiles) {
      rows.push(
        {
          figure: '3 consumer',
          measure: `profile records/s, ${c.recordsPerProfile} per profile per batch`,
          value: c.recordsPerSecond,
          baseline: `${c.naiveRecordsPerSecond} (Get+Put per record)`,
          ratio: `${c.speedup} (consumer ÷ naive)`,
          // Issue #17's target, for the common case: one update per profile in a batch.
          target: c.recordsPerProfile === 1 ? '≥ 1' : '',
        },
        {
          figure: '3 consumer',
          measure: `DynamoDB calls/record, ${c.recordsPerProfile} per profile`,
          value: c.callsPerRecord,
          baseline: `${c.naiveCallsPerRecord} (Get+Put per record)`,
          ratio: `${round(c.callsPerRecord / c.naiveCallsPerRecord, 3)} (consumer ÷ naive)`,
          target: `≤ ${c.targetCallsPerRecord}`,
        },
      );
    }
    rows.push({
      figure: '3 consumer',
      measure: 'event records/s, 10 per profile per batch (for figure 6)',
      value: consumer.events.recordsPerSecond,
      baseline: `(${consumer.events.callsPerRecord} calls, ${consumer.events.writeUnitsPerRecord} WRU per record)`,
      ratio: '',
      target: '',
    });
  }

  if (failed(funnel)) missing('3 funnel consumer', funnel);
  else if (measured(funnel)) {
    rows.push(
      {
        figure: '3 funnel consumer',
        measure: `events with attribution/s (batches of ${funnel.batchSize}: 10 players × 10 money events)`,
        value: funnel.eventsPerSecond,
        baseline: `${funnel.naiveEventsPerSecond} (naive get + put of the day row per event)`,
        ratio: `${funnel.speedup} (consumer ÷ naive)`,
        target: '',
      },
      {
        figure: '3 funnel consumer',
        measure: 'DynamoDB calls per event',
        value: funnel.callsPerEvent,
        baseline: `${funnel.naiveCallsPerEvent} (naive)`,
        ratio: `${round(funnel.callsPerEvent / funnel.naiveCallsPerEvent, 3)} (consumer ÷ naive)`,
        target: '',
      },
    );
  }

  if (failed(coldStart)) missing('4 cold start', coldStart);
  else if (measured(coldStart)) {
    // Issue #17's targets: the ingestion functions, and every other bundle (the largest is SendPush).
    for (const f of coldStart.functions) {
      rows.push({
        figure: '4 cold start',
        measure: `${f.id}: KB minified / ms to load${f.runs < coldStart.runs ? ` (${f.runs} of ${coldStart.runs} runs in the ${coldStart.budgetSeconds} s budget)` : ''}`,
        value: `${kb(f.bytes)} / ${f.loadMs}`,
        baseline: `empty process ${coldStart.emptyProcessMs} ms`,
        ratio: `${round(f.loadMs / coldStart.emptyProcessMs, 1)} (load ÷ empty start)`,
        target: f.ingestion ? '≤ 250 KB / ≤ 100 ms' : '≤ 400 KB',
      });
    }
    for (const left of coldStart.notMeasured) {
      rows.push({ figure: '4 cold start', measure: `${left.id}: not measured`, value: left.reason.slice(0, 200), baseline: '', ratio: '', target: '' });
    }
  }

  if (failed(webSdk)) missing('5 web SDK', webSdk);
  else if (!measured(webSdk)) {
    // not asked for
  } else if (!webSdk.built)
    rows.push({ figure: '5 web SDK', measure: 'gzipped KB', value: webSdk.note ?? 'not built yet', baseline: 'OneSignal 80 / 55', ratio: '', target: '' });
  else {
    for (const f of webSdk.files) {
      rows.push({
        figure: '5 web SDK',
        measure: `${f.file}, gzipped KB`,
        value: round(f.gzipBytes / 1024, 2),
        baseline: `${kb(f.oneSignalGzipBytes)} (OneSignal)`,
        ratio: `${round(f.gzipBytes / f.oneSignalGzipBytes, 3)} (ours ÷ OneSignal)`,
        target: '',
      });
    }
    if (webSdk.console) {
      rows.push({
        figure: '5 web SDK',
        measure: 'back-office console, first load (JS + CSS), gzipped KB',
        value: round(webSdk.console.gzipBytes / 1024, 1),
        baseline: '',
        ratio: '',
        target: `≤ ${kb(webSdk.console.budgetBytes)}`,
      });
    }
  }
  // No build needed: the portals' CSS is a module's string, inlined in every page they send.
  if (measured(webSdk) && webSdk.portalCss) {
    rows.push({
      figure: '5 web SDK',
      measure: `portal pages, inlined CSS, KB (${kb(webSdk.portalCss.gzipBytes)} gzipped)`,
      value: kb(webSdk.portalCss.bytes),
      baseline: '',
      ratio: '',
      target: `≤ ${kb(webSdk.portalCss.budgetBytes)}`,
    });
  }

  const costs: Record<string, CostBreakdown> = {};
  if (measured(ingest) && measured(consumer)) {
    // A request is billed for the handler and its stream write: the local write time stands in for Kinesis's.
    const streamWriteMs = measured(endToEnd) ? endToEnd.rawPutRecords.p50Ms : 0;
    const profileCase = (k: number) => consumer.profiles.find((c) => c.recordsPerProfile === k)!;
    const scenarios: [string, Parameters<typeof costPerMillion>[0]][] = [
      [
        'events',
        {
          recordsPerRequest: 500,
          bytesPerRecord: ingest.bytesPerEventRecord,
          ingestMsPerRequest: ingest.msPerRequest + streamWriteMs,
          consumerBatchSize: consumer.batchSize,
          consumerMsPerBatch: consumer.events.msPerBatch,
          readUnitsPerRecord: consumer.events.readUnitsPerRecord,
          writeUnitsPerRecord: consumer.events.writeUnitsPerRecord,
        },
      ],
      ...[1, 10].map(
        (k) =>
          [
            `profile updates, ${k} per profile per batch`,
            {
              recordsPerRequest: 500,
              bytesPerRecord: ingest.bytesPerProfileRecord,
              ingestMsPerRequest: ingest.profilesMsPerRequest + streamWriteMs,
              consumerBatchSize: consumer.batchSize,
              consumerMsPerBatch: profileCase(k).msPerBatch,
              readUnitsPerRecord: profileCase(k).readUnitsPerRecord,
              writeUnitsPerRecord: profileCase(k).writeUnitsPerRecord,
            },
          ] as [string, Parameters<typeof costPerMillion>[0]],
      ),
    ];
    for (const [name, inputs] of scenarios) {
      const cost = costPerMillion(inputs);
      costs[name] = cost;
      rows.push({
        figure: '6 cost',
        measure: `USD per million records: ${name}`,
        value: usd(cost.total),
        baseline: `${usd(cost.streamOnly)} (Kinesis in+out alone)`,
        ratio: `${round(cost.total / cost.streamOnly, 1)} (total ÷ stream)`,
        // Issue #17's targets: events, and profile updates in the common case (one per profile per batch).
        target: name === 'events' || name.startsWith('profile updates, 1 ') ? '≤ 0.50' : '',
      });
    }
  } else if (measures('6')) rows.push({ figure: '6 cost', measure: 'not computed', value: 'needs figures 1 and 3', baseline: '', ratio: '', target: '' });

  if (failed(clicks)) missing('7 clicks', clicks);
  else if (measured(clicks)) rows.push(...clickRows(clicks));
  if (failed(consolePages)) missing('8 console', consolePages);
  else if (measured(consolePages)) rows.push(...consoleRows(consolePages));
  if (failed(segmentEngine)) missing('10 segments', segmentEngine);
  else if (measured(segmentEngine)) rows.push(...segmentEngineRows(segmentEngine));
  if (failed(segmentLatency)) missing('10 segments', segmentLatency);
  else if (measured(segmentLatency)) rows.push(...segmentLatencyRows(segmentLatency));

  if (failed(campaignLatency)) missing('11 event to email', campaignLatency);
  else if (measured(campaignLatency)) rows.push(...campaignLatencyRows(campaignLatency));
  if (failed(broadcast)) missing('12 broadcast', broadcast);
  else if (measured(broadcast)) {
    rows.push(...broadcastRows(broadcast));
    rows.push(...broadcastCapacityRows(broadcast, broadcastConcurrency(messagingLimits.broadcastRateMax)));
  }
  if (failed(journeyCost)) missing('14 journey cost', journeyCost);
  else if (measured(journeyCost)) rows.push(...journeyCostRows(journeyCost));

  if (failed(search)) missing('9 player search', search);
  else if (measured(search)) {
    for (const found of search.searches) {
      rows.push({
        figure: '9 player search',
        measure: `${found.name}: p50 / p95 ms (${search.players} players, ${found.found} found)`,
        value: `${found.p50Ms} / ${found.p95Ms}`,
        baseline: `${search.baseline.p50Ms} / ${search.baseline.p95Ms} (GetItem of a profile)`,
        ratio: `${found.ratio} (p50, search ÷ GetItem)`,
        target: '',
      });
    }
  }

  printTable(rows);
  console.log(
    `\nPrices: ${awsPrices.region}, ${awsPrices.currency}, checked ${awsPrices.checked} (test/bench/aws-prices.ts); ` +
      `plus the stream's fixed $${streamFeePerMonth().toFixed(2)} a month. Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}.`,
  );

  const outDir = join(repoRoot, '.urm');
  mkdirSync(outDir, { recursive: true });
  const result = {
    started: started.toISOString(),
    finished: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
    prices: awsPrices,
    rows,
    figures: {
      ingest,
      endToEnd,
      consumer,
      funnel,
      coldStart,
      webSdk,
      clicks,
      consolePages,
      segmentEngine,
      segmentLatency,
      campaignLatency,
      broadcast,
      journeyCost,
      costs,
    },
  };
  // A run of some figures keeps the whole run's file.
  const file = asked.length === 0 ? 'bench.json' : `bench-${[...new Set(asked)].sort().join('-')}.json`;
  writeFileSync(join(outDir, file), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`Written to .urm/${file}`);
  const outcomes = {
    '1 ingest handler': ingest,
    '2 local end to end': endToEnd,
    '3 consumer': consumer,
    '3 funnel consumer': funnel,
    '4 cold start': coldStart,
    '5 web SDK': webSdk,
    '7 clicks': clicks,
    '8 console': consolePages,
    '9 segment engine': segmentEngine,
    '9 segment latency': segmentLatency,
    '11 event to email': campaignLatency,
    '12 broadcast': broadcast,
    '14 journey cost': journeyCost,
  };
  const notMeasured = Object.entries(outcomes).filter((entry): entry is [string, Failed] => failed(entry[1]));
  for (const [name, outcome] of notMeasured) console.error(`Figure ${name} was not measured: ${outcome.error}`);
  process.exit(notMeasured.length > 0 ? 1 : 0);
}

function printTable(rows: Row[]): void {
  const headers: (keyof Row)[] = ['figure', 'measure', 'value', 'baseline', 'ratio', 'target'];
  const cells = rows.map((row) => headers.map((h) => String(row[h])));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(headers));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
}

await main();
