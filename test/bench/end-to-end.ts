/**
 * Figure 2: the local stack end to end over HTTP. autocannon drives POST
 * /events with 500-record bodies on loopback; the baseline sends PutRecords
 * of the same records, enveloped as the service does, straight to the
 * stack's kinesalite from one client with the same concurrency. Records/s
 * and p50/p99 per request for both, in two rounds of 4 s each, alternating.
 *
 * The stack runs in its own process (as `npm start`), so the load generator
 * does not share its event loop; its consumers run as they always do. The
 * baseline's envelopes carry a kind no consumer takes, so it measures the
 * stream alone.
 */
import { KinesisClient, PutRecordsCommand } from '@aws-sdk/client-kinesis';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import type { DevConfig } from '../../lib/local/demo-app';
import { ingestStream } from '../../functions/manifest/resources';
import { toStreamEntries } from '../../functions/domain/ingest';
import { combineRounds, percentile, report, round, withLocalStack } from './support';
import { BATCH, eventBatch } from './workloads';

/** Seconds per round; two rounds a side. */
const SECONDS = Number(process.env.URM_BENCH_E2E_SECONDS ?? 4);
const CONNECTIONS = 4;

export interface EndToEndSide {
  recordsPerSecond: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

export interface EndToEndResult {
  recordsPerRequest: number;
  connections: number;
  seconds: number;
  http: EndToEndSide;
  rawPutRecords: EndToEndSide;
  /** HTTP records/s ÷ raw PutRecords records/s. */
  ratio: number;
}

async function rawPutRecords(kinesisEndpoint: string, accessKeyId: string, appId: string): Promise<EndToEndSide> {
  const client = new KinesisClient({
    endpoint: kinesisEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId, secretAccessKey: 'local' },
    requestHandler: new NodeHttpHandler({ httpAgent: new Agent({ keepAlive: true }) }),
  });
  const records = eventBatch(appId);
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + SECONDS * 1000;
  const started = performance.now();
  const worker = async () => {
    while (performance.now() < end) {
      // The same envelopes the handler writes, under a kind no consumer takes.
      const entries = toStreamEntries('bench' as never, records as never, appId, { newId: randomUUID, now: () => new Date() });
      const start = performance.now();
      try {
        const out = await client.send(
          new PutRecordsCommand({ StreamName: ingestStream.localName, Records: entries.map((e) => ({ Data: e.data, PartitionKey: e.partitionKey })) }),
        );
        if (out.FailedRecordCount) errors++;
        latencies.push(performance.now() - start);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const elapsed = (performance.now() - started) / 1000;
  client.destroy();
  return {
    recordsPerSecond: Math.round((latencies.length * BATCH) / elapsed),
    requests: latencies.length,
    p50Ms: round(percentile(latencies, 50), 1),
    p99Ms: round(percentile(latencies, 99), 1),
    errors,
  };
}

async function overHttp(baseUrl: string, dev: DevConfig): Promise<EndToEndSide> {
  const result = await autocannon({
    url: `${baseUrl}/events`,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': dev.server_key },
    body: JSON.stringify(eventBatch(dev.app_id)),
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 30,
  });
  const ok = result['2xx'];
  return {
    recordsPerSecond: Math.round((ok * BATCH) / result.duration),
    requests: ok,
    p50Ms: round(result.latency.p50, 1),
    p99Ms: round(result.latency.p99, 1),
    errors: result.errors + result.non2xx,
  };
}

async function main(): Promise<EndToEndResult> {
  return withLocalStack(async ({ dev, endpoints }) => {
    // Two rounds each, alternating, so that drift (a growing LevelDB, a busy neighbour) hits both sides alike.
    const raws: EndToEndSide[] = [];
    const https: EndToEndSide[] = [];
    for (let round = 0; round < 2; round++) {
      raws.push(await rawPutRecords(endpoints.kinesis_endpoint, endpoints.access_key_id, dev.app_id));
      https.push(await overHttp(endpoints.base_url, dev));
    }
    const raw = combineRounds(raws, 'recordsPerSecond');
    const http = combineRounds(https, 'recordsPerSecond');
    return {
      recordsPerRequest: BATCH,
      connections: CONNECTIONS,
      seconds: SECONDS * 2,
      http,
      rawPutRecords: raw,
      ratio: round(http.recordsPerSecond / Math.max(1, raw.recordsPerSecond), 2),
    };
  });
}

report(await main());
process.exit(0);
