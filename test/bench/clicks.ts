/**
 * Figure 7: clicks on a tracking link, `GET /t/{link_id}`, on the local stack
 * as `npm start` runs it (its own process), driven over HTTP by autocannon.
 *
 * - A flood of new visitors: a different User-Agent per request and no
 *   cookie, all from one address (loopback): past the address's first few of
 *   the day, each is the visitor's claim, then the address's count refused.
 * - Repeat clicks: one visitor's cookie on every request: the claim refused,
 *   nothing else written.
 * - Baseline: `GET /push/config` with the demo browser key and an Origin, a
 *   cheap keyed GET through the same server and Lambda plumbing.
 *
 * Two rounds of a few seconds per side, alternating; redirects/s, p50/p99.
 * Then the AWS calls one click makes, counted on the shared SDK clients
 * while the real handler runs in this process against the stack's
 * emulators, and what a million clicks cost at the prices of aws-prices.ts:
 * for those two cases, and for a counted new visitor (each from an address
 * of its own, which autocannon cannot give a connection): the claim, the
 * address's count, then one record on the stream.
 */
import type { KinesisClient, PutRecordsCommandInput } from '@aws-sdk/client-kinesis';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import autocannon from 'autocannon';
import { pathToFileURL } from 'node:url';
import { localBackOffice, localClients, type LocalEndpoints } from '../../lib/local/stack';
import { createLink } from '../../functions/back-office/affiliate-links';
import type { LinkRecord } from '../../functions/domain/affiliate-program';
import { CLICKS_PER_ADDRESS_PER_DAY } from '../../functions/domain/tracking-links';
import { apiEvent, context } from '../support/lambda';
import { readWholeStream } from '../support/stream';
import { costPerMillion, type CostBreakdown } from './cost';
import { combineRounds, countDynamoCalls, functionEnvironment, median, report, round, withLocalStack, type BenchRow } from './support';

/** Seconds per round; two rounds a side. */
const SECONDS = Number(process.env.URM_BENCH_CLICK_SECONDS ?? 3);
const CONNECTIONS = 4;
/** A cap per round besides its duration. */
const MAX_REQUESTS_PER_ROUND = 30_000;
/** Clicks of each kind sent straight to the handler to count its AWS calls. */
const COUNTED_CLICKS = 200;

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface ClickSide {
  /** Answers of the expected status (302 for clicks, 200 for the baseline) per second. */
  perSecond: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Any other answer, or none. */
  errors: number;
}

export interface ClickCalls {
  /** Per click, by command, warm container (link and affiliate cached). */
  dynamodb: Record<string, number>;
  kinesis: Record<string, number>;
  callsPerClick: number;
  readUnitsPerClick: number;
  writeUnitsPerClick: number;
  /** Bytes of the click's record on the stream (data + partition key). */
  streamBytesPerClick: number;
  /** The handler's median duration, its AWS calls to the local emulators included. */
  handlerMs: number;
}

export interface ClickCost extends Omit<CostBreakdown, 'lambdaConsumer' | 'streamOnly'> {
  /** API Gateway alone: the floor of any click address behind a REST API. */
  apiGatewayOnly: number;
}

export interface ClickResult {
  connections: number;
  seconds: number;
  baseline: ClickSide;
  /** New visitors from one address, past its bound: over HTTP. */
  floodClicks: ClickSide & { ratio: number };
  repeatClicks: ClickSide & { ratio: number };
  /** Click records of the HTTP link the stream should hold (the address's few of the day), and those it holds. */
  stream: { expected: number; recorded: number };
  /** Clicks the stack logged as not counted (a failed read, claim, count or stream write). */
  notCounted: number;
  calls: { newClick: ClickCalls; floodClick: ClickCalls; repeatClick: ClickCalls; coldFirstClick: Record<string, number> };
  /** USD per million clicks; the funnel consumer's share (counting the records) is not in it. */
  cost: { newClick: ClickCost; floodClick: ClickCost; repeatClick: ClickCost };
}

function sideOf(result: autocannon.Result, expected: '2xx' | '3xx'): ClickSide {
  const ok = result[expected];
  return {
    perSecond: Math.round(ok / result.duration),
    requests: ok,
    p50Ms: round(result.latency.p50, 1),
    p99Ms: round(result.latency.p99, 1),
    errors: result.errors + result.timeouts + (result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'] - ok),
  };
}

const cannon = (url: string, headers: Record<string, string>, idReplacement = false) =>
  autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS, maxOverallRequests: MAX_REQUESTS_PER_ROUND, timeout: 10, idReplacement });

/** Counts the calls sent through a Kinesis client, and the bytes PutRecords writes. */
function countKinesisCalls(client: Pick<KinesisClient, 'middlewareStack'>) {
  const counts = { byCommand: {} as Record<string, number>, bytes: 0 };
  client.middlewareStack.add(
    (next, ctx) => async (args) => {
      const command = ctx.commandName ?? 'unknown';
      counts.byCommand[command] = (counts.byCommand[command] ?? 0) + 1;
      for (const entry of (args.input as PutRecordsCommandInput).Records ?? []) counts.bytes += entry.Data!.byteLength + Buffer.byteLength(entry.PartitionKey!);
      return next(args);
    },
    { step: 'initialize', name: 'benchKinesisCounter' },
  );
  return {
    counts,
    reset() {
      counts.byCommand = {};
      counts.bytes = 0;
    },
  };
}

const perClick = (byCommand: Record<string, number>, clicks: number) =>
  Object.fromEntries(Object.entries(byCommand).map(([command, n]) => [command, round(n / clicks, 3)]));

/**
 * The click handler in this process, against the stack's DynamoDB Local and
 * kinesalite, with counters on the shared clients it uses.
 */
async function countCalls(endpoints: LocalEndpoints, link: LinkRecord): Promise<ClickResult['calls']> {
  Object.assign(
    process.env,
    functionEnvironment({ dynamodb: endpoints.dynamodb_endpoint, kinesis: endpoints.kinesis_endpoint, accessKeyId: endpoints.access_key_id }),
  );
  const { dynamo } = await import('../../functions/adapters/clients/dynamo');
  const { kinesis } = await import('../../functions/adapters/clients/kinesis');
  const dynamoCounter = countDynamoCalls(dynamo);
  const kinesisCounter = countKinesisCalls(kinesis);
  const handler = (await import('../../functions/api/track-click/handler')).handler as unknown as Handler;

  const click = async (userAgent: string, cookie?: string, sourceIp = '192.0.2.1') => {
    const event = apiEvent({ method: 'GET', path: `/t/${link.link_id}`, headers: { 'User-Agent': userAgent, ...(cookie ? { Cookie: cookie } : {}) } });
    const requestContext = { ...event.requestContext, identity: { ...event.requestContext.identity, sourceIp } };
    const started = performance.now();
    const response = await handler({ ...event, requestContext, pathParameters: { link_id: link.link_id } }, context('TrackClick'));
    const ms = performance.now() - started;
    if (response.statusCode !== 302 || !String(response.headers?.Location).includes('urm_aff_id=')) {
      throw new Error(`the click answered ${response.statusCode} to ${String(response.headers?.Location)}`);
    }
    return { ms, setCookie: response.headers?.['Set-Cookie'] as string | undefined };
  };

  // A fresh container: the link, its affiliate and the visitor-cookie key are read once, then cached.
  const first = await click('bench-calls-first');
  const coldFirstClick = { ...dynamoCounter.counts.byCommand, ...kinesisCounter.counts.byCommand };

  const measure = async (clickOnce: (i: number) => Promise<{ ms: number }>): Promise<ClickCalls> => {
    dynamoCounter.reset();
    kinesisCounter.reset();
    const durations: number[] = [];
    for (let i = 0; i < COUNTED_CLICKS; i++) durations.push((await clickOnce(i)).ms);
    const dynamoCalls = Object.values(dynamoCounter.counts.byCommand).reduce((a, b) => a + b, 0);
    const kinesisCalls = Object.values(kinesisCounter.counts.byCommand).reduce((a, b) => a + b, 0);
    return {
      dynamodb: perClick(dynamoCounter.counts.byCommand, COUNTED_CLICKS),
      kinesis: perClick(kinesisCounter.counts.byCommand, COUNTED_CLICKS),
      callsPerClick: round((dynamoCalls + kinesisCalls) / COUNTED_CLICKS, 3),
      readUnitsPerClick: round(dynamoCounter.counts.readUnits / COUNTED_CLICKS, 3),
      writeUnitsPerClick: round(dynamoCounter.counts.writeUnits / COUNTED_CLICKS, 3),
      streamBytesPerClick: Math.round(kinesisCounter.counts.bytes / COUNTED_CLICKS),
      handlerMs: round(median(durations), 2),
    };
  };

  // Counted: each new visitor from an address of its own.
  const newClick = await measure((i) => click(`bench-calls-${i}`, undefined, `10.77.${i >> 8}.${i & 255}`));
  // A flood from one address: its first few of the day are counted, the rest measured.
  for (let i = 0; i < CLICKS_PER_ADDRESS_PER_DAY; i++) await click(`bench-flood-first-${i}`, undefined, '192.0.2.99');
  const floodClick = await measure((i) => click(`bench-flood-${i}`, undefined, '192.0.2.99'));
  const cookie = first.setCookie!.split(';')[0];
  const repeatClick = await measure(() => click('bench-calls-first', cookie));
  // A conditional write that fails is billed as a write of the item it found (DynamoDB Local reports no capacity for
  // it): the claim or count item a new click wrote, at least one unit each.
  const unitsPerWrite = Math.max(
    1,
    newClick.writeUnitsPerClick / Math.max(1, (newClick.dynamodb.PutItemCommand ?? 0) + (newClick.dynamodb.UpdateItemCommand ?? 0)),
  );
  for (const refused of [floodClick, repeatClick]) {
    refused.writeUnitsPerClick = round(((refused.dynamodb.PutItemCommand ?? 0) + (refused.dynamodb.UpdateItemCommand ?? 0)) * unitsPerWrite, 3);
  }
  return { newClick, floodClick, repeatClick, coldFirstClick };
}

function costOf(calls: ClickCalls): ClickCost {
  // One click per request; the consumer part is left out (no consumer of click records is measured here).
  const {
    lambdaConsumer: _consumer,
    streamOnly: _stream,
    ...cost
  } = costPerMillion({
    recordsPerRequest: 1,
    bytesPerRecord: calls.streamBytesPerClick,
    ingestMsPerRequest: calls.handlerMs,
    consumerBatchSize: 1,
    consumerMsPerBatch: 0,
    readUnitsPerRecord: calls.readUnitsPerClick,
    writeUnitsPerRecord: calls.writeUnitsPerClick,
  });
  return { ...cost, total: cost.total - _consumer, apiGatewayOnly: cost.apiGateway };
}

async function main(): Promise<ClickResult> {
  return withLocalStack(async ({ dev, endpoints, output }) => {
    const base = endpoints.base_url;

    const registered = await fetch(`${base}/api/register_affiliate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': dev.server_key },
      body: JSON.stringify({
        app_id: dev.app_id,
        email: 'bench@example.com',
        username: 'bench_clicks',
        password: 'correct horse battery',
        first_name: 'Bench',
        last_name: 'Clicks',
      }),
    });
    if (registered.status !== 200) throw new Error(`register_affiliate answered ${registered.status}: ${await registered.text()}`);
    const { affiliate_id: affiliateId } = (await registered.json()) as { affiliate_id: string };
    const clients = localClients(endpoints);
    // The demo application's site origin is the stack's own; one link for HTTP, one for the counted handler.
    const newLink = createLink(localBackOffice(clients.document));
    const httpLink = await newLink(dev.app_id, affiliateId, { name: 'Bench over HTTP', landing_url: `${base}/landing?lang=en` });
    const handlerLink = await newLink(dev.app_id, affiliateId, { name: 'Bench in process', landing_url: `${base}/landing?lang=en` });
    clients.dynamo.destroy();
    clients.kinesis.destroy();

    const clickUrl = `${base}/t/${httpLink.link_id}`;
    const first = await fetch(clickUrl, { redirect: 'manual', headers: { 'User-Agent': 'bench-repeat' } });
    if (first.status !== 302 || !first.headers.get('location')?.includes('urm_aff_id='))
      throw new Error(`a click answered ${first.status} to ${first.headers.get('location')}`);
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
    const pushConfig = `${base}/push/config?app_id=${encodeURIComponent(dev.app_id)}`;
    const probe = await fetch(pushConfig, { headers: { 'x-api-key': dev.browser_key, Origin: base, accept: 'application/json' } });
    if (probe.status !== 200) throw new Error(`GET /push/config answered ${probe.status}: ${await probe.text()}`);

    // Two rounds each, alternating, so that drift (a growing LevelDB, a busy neighbour) hits every side alike.
    const baselines: ClickSide[] = [];
    const floods: ClickSide[] = [];
    const repeats: ClickSide[] = [];
    for (let i = 0; i < 2; i++) {
      baselines.push(sideOf(await cannon(pushConfig, { 'x-api-key': dev.browser_key, origin: base, accept: 'application/json' }), '2xx'));
      // idReplacement puts a fresh id wherever `[<id>]` is in the request, headers included: a new visitor each time.
      floods.push(sideOf(await cannon(clickUrl, { 'user-agent': 'bench-new-[<id>]' }, true), '3xx'));
      repeats.push(sideOf(await cannon(clickUrl, { 'user-agent': 'bench-repeat', cookie }), '3xx'));
    }
    const baseline = combineRounds(baselines, 'perSecond');
    const floodClicks = combineRounds(floods, 'perSecond');
    const repeatClicks = combineRounds(repeats, 'perSecond');

    // The address (all loopback) has its few counted clicks of the day on the link: the first click above and the flood's first.
    const recorded = (await readWholeStream(endpoints)).filter(
      (stored) => stored.envelope.kind === 'click' && stored.envelope.record.link_id === httpLink.link_id,
    ).length;
    const notCounted = output().split('Click not counted').length - 1;

    const calls = await countCalls(endpoints, handlerLink);
    const ratio = (side: ClickSide) => round(side.perSecond / Math.max(1, baseline.perSecond), 2);
    return {
      connections: CONNECTIONS,
      seconds: SECONDS * 2,
      baseline,
      floodClicks: { ...floodClicks, ratio: ratio(floodClicks) },
      repeatClicks: { ...repeatClicks, ratio: ratio(repeatClicks) },
      stream: { expected: Math.min(CLICKS_PER_ADDRESS_PER_DAY, 1 + floodClicks.requests), recorded },
      notCounted,
      calls,
      cost: { newClick: costOf(calls.newClick), floodClick: costOf(calls.floodClick), repeatClick: costOf(calls.repeatClick) },
    };
  });
}

const usd = (value: number) => round(value, value < 1 ? 4 : 2);

/** Figure 7's rows of the bench table (test/bench/run.ts). */
export function clickRows(c: ClickResult): BenchRow[] {
  const figure = '7 clicks';
  const b = c.baseline;
  const calls = (k: ClickResult['calls']['newClick']) =>
    Object.entries({ ...k.dynamodb, ...k.kinesis })
      .map(([command, n]) => `${n} ${command.replace(/Command$/, '')}`)
      .join(' + ') || '0';
  const rows: BenchRow[] = [];
  for (const [name, side, k, cost, target] of [
    ['new visitor, counted (claim + address count + stream write)', undefined, c.calls.newClick, c.cost.newClick, '3'],
    ['flood past the address bound (claim + count refused)', c.floodClicks, c.calls.floodClick, c.cost.floodClick, '2'],
    ['repeat, one cookie (claim refused)', c.repeatClicks, c.calls.repeatClick, c.cost.repeatClick, '1'],
  ] as const) {
    // The counted path needs an address per visitor: measured in process only (autocannon has one address).
    if (side) {
      rows.push(
        {
          figure,
          measure: `redirects/s, GET /t/{link_id}, ${name}`,
          value: side.perSecond,
          baseline: `${b.perSecond} (GET /push/config)`,
          ratio: `${side.ratio} (click ÷ baseline)`,
          target: '',
        },
        {
          figure,
          measure: `p50 / p99 ms, ${name}`,
          value: `${side.p50Ms} / ${side.p99Ms}`,
          baseline: `${b.p50Ms} / ${b.p99Ms}`,
          ratio: `${round(side.p99Ms / Math.max(0.1, b.p99Ms), 2)} (p99, click ÷ baseline)`,
          target: '',
        },
      );
    }
    rows.push(
      { figure, measure: `AWS calls per click, ${name}`, value: k.callsPerClick, baseline: calls(k), ratio: '', target },
      {
        figure,
        measure: `USD per million clicks, ${name}`,
        value: usd(cost.total),
        baseline: `${usd(cost.apiGatewayOnly)} (API Gateway alone)`,
        ratio: `${round(cost.total / cost.apiGatewayOnly, 2)} (total ÷ API Gateway)`,
        target: '',
      },
    );
  }
  const off = Math.abs(c.stream.expected - c.stream.recorded);
  const errors = c.floodClicks.errors + c.repeatClicks.errors + b.errors;
  if (errors + c.notCounted + off > 0) {
    rows.push({
      figure,
      measure: 'errors / clicks not counted / click records more or fewer than counted',
      value: `${errors} / ${c.notCounted} / ${off}`,
      baseline: '',
      ratio: '',
      target: '0 / 0 / 0',
    });
  }
  return rows;
}

// Run as a figure's process; run.ts imports only the rows above.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  report(await main());
  process.exit(0);
}
