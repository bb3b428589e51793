import { afterEach, beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { KinesisClient, PutRecordsCommand } from '@aws-sdk/client-kinesis';
import { DynamoDBDocumentClient, BatchWriteCommand, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { Context, KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { metricsNamespace } from '../../../functions/manifest/metrics';
import { kinesisEvent, sequenceNumbers } from '../../support/kinesis-event';
import { acceptedPutRecords, apiEvent, context, keysByHash, setFunctionEnv, type ProxyHandler } from '../../support/lambda';

// On for this file only (jest.config.js turns metrics off), before any handler reads it at its cold start.
setFunctionEnv({
  POWERTOOLS_METRICS_DISABLED: 'false',
  POWERTOOLS_SERVICE_NAME: 'MetricsTest',
  KEYS_TABLE: 'keys',
  APPS_TABLE: 'apps',
  STREAM_NAME: 'stream',
  PROFILES_TABLE: 'profiles',
  TIMELINE_TABLE: 'timeline',
  REJECTIONS_TABLE: 'rejections',
  FIGURES_TABLE: 'figures',
  PLAYER_SEARCH_TABLE: 'player-search',
  SECRETS_PREFIX: '/urm/test',
});

type Consumer = (event: KinesisStreamEvent, context: Context) => Promise<KinesisStreamBatchResponse>;
interface Emf {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [field: string]: unknown;
}

const kinesis = mockClient(KinesisClient);
const dynamo = mockClient(DynamoDBDocumentClient);
const byHash = keysByHash({ 'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k1' } });

let ingestEvents: ProxyHandler;
let applyProfiles: Consumer;
beforeAll(async () => {
  ingestEvents = (await import('../../../functions/api/ingest-events/handler')).handler as unknown as ProxyHandler;
  applyProfiles = (await import('../../../functions/consumers/apply-profiles/handler')).handler as unknown as Consumer;
});

let written: string[];
beforeEach(() => {
  kinesis.reset();
  dynamo.reset();
  dynamo.on(GetCommand).callsFake((input: { TableName: string; Key: { key_hash?: string } }) => ({
    Item: input.TableName === 'keys' ? byHash.get(input.Key.key_hash!) : undefined,
  }));
  dynamo.on(PutCommand).resolves({});
  // A new profile is written with the players counter, in one transaction.
  dynamo.on(TransactWriteCommand).resolves({});
  // Its search terms, written before it.
  dynamo.on(BatchWriteCommand).resolves({});
  kinesis.on(PutRecordsCommand).callsFake(acceptedPutRecords);
  written = [];
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  jest.restoreAllMocks();
});

/** The embedded-metric-format documents the invocation printed. */
const emitted = (): Emf[] =>
  written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.startsWith('{') && line.includes('"_aws"'))
    .map((line) => JSON.parse(line) as Emf);

/** Metric name → value, from the one document an invocation prints; checks namespace and dimension on the way. */
function metricsOf(documents: Emf[]): Record<string, unknown> {
  expect(documents).toHaveLength(1);
  const [document] = documents;
  const [directive] = document._aws.CloudWatchMetrics;
  expect(directive.Namespace).toBe(metricsNamespace);
  expect(directive.Dimensions).toEqual([['service']]);
  expect(document.service).toBe('MetricsTest');
  return Object.fromEntries(
    directive.Metrics.map(({ Name, Unit }) => {
      expect(Unit).toBe('Count');
      return [Name, document[Name]];
    }),
  );
}

const event = { app_id: 'app_1', profile_id: 'player-1', event: 'deposit', urm_date_time: '2026-11-21T10:00:00Z' };
const postEvents = (body: unknown, key = 'server-key') =>
  ingestEvents(
    apiEvent({ path: '/events', headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Api-Key': key }, body: JSON.stringify(body) }),
    context(),
  );

describe('metrics in embedded metric format', () => {
  test('POST /events prints the records it put on the stream, once per invocation', async () => {
    const response = await postEvents([event, { ...event, profile_id: 'player-2' }, { ...event, profile_id: 'player-3' }]);

    expect(response.statusCode).toBe(200);
    expect(metricsOf(emitted())).toEqual({ RecordsIngested: 3, RecordsNotIngested: 0 });
  });

  test('POST /events counts every record of a body that fails validation as rejected', async () => {
    const response = await postEvents([event, { ...event, urm_date_time: 'yesterday' }]);

    expect(response.statusCode).toBe(400);
    expect(metricsOf(emitted())).toEqual({ RecordsRejected: 2 });
  });

  test('the profile consumer prints what it applied, skipped as a duplicate and rejected', async () => {
    const [s1, s2, s3] = sequenceNumbers(3);
    const profile = { app_id: 'app_1', profile_id: 'player-1', urm_date_time: '2026-11-21T10:00:00Z' };
    const batch = kinesisEvent([
      { kind: 'profile', sequenceNumber: s1, record: { ...profile, urm_insert_id: 'a', urm_set: { level: 'gold' } } },
      // `level` is a string: adding to it is rejected.
      { kind: 'profile', sequenceNumber: s2, record: { ...profile, urm_insert_id: 'b', urm_add: { level: 1 } } },
      // The client sent `a` again.
      { kind: 'profile', sequenceNumber: s3, record: { ...profile, urm_insert_id: 'a', urm_set: { level: 'gold' } } },
    ]);

    const response = await applyProfiles(batch, context('ApplyProfiles'));

    expect(response).toEqual({ batchItemFailures: [] });
    expect(metricsOf(emitted())).toEqual({ RecordsApplied: 1, DuplicatesSkipped: 1, RecordsRejected: 1 });
  });
});
