/**
 * The ingestion functions as deployed (handler.ts): what their wiring decides
 * is the Kinesis call itself, so the SDK is mocked here: the stream the
 * environment names, and POST /profiles keeping each profile's records in
 * order where POST /events sends a batch in one call.
 */
import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { KinesisClient, PutRecordsCommand, type PutRecordsCommandInput } from '@aws-sdk/client-kinesis';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { acceptedPutRecords, apiEvent, asProxyHandler, context, keysByHash, type ProxyHandler, setFunctionEnv } from '../../support/lambda';

setFunctionEnv({ KEYS_TABLE: 'keys', APPS_TABLE: 'apps', STREAM_NAME: 'stream', SECRETS_PREFIX: '/urm/test' });

const kinesis = mockClient(KinesisClient);
const dynamo = mockClient(DynamoDBDocumentClient);
const byHash = keysByHash({ 'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k1' } });

let events: ProxyHandler;
let profiles: ProxyHandler;
beforeAll(async () => {
  events = asProxyHandler((await import('../../../functions/api/ingest-events/handler')).handler);
  profiles = asProxyHandler((await import('../../../functions/api/ingest-profiles/handler')).handler);
});

beforeEach(() => {
  kinesis.reset();
  dynamo.reset();
  dynamo.on(GetCommand).callsFake((input: { Key: { key_hash: string } }) => ({ Item: byHash.get(input.Key.key_hash) }));
  kinesis.on(PutRecordsCommand).callsFake(acceptedPutRecords);
});

const post = (handler: ProxyHandler, body: unknown) =>
  handler(
    apiEvent({ path: '/', headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Api-Key': 'server-key' }, body: JSON.stringify(body) }),
    context(),
  );
const calls = () => kinesis.commandCalls(PutRecordsCommand).map((call) => call.args[0].input as PutRecordsCommandInput);
const recordsPerCall = () => calls().map((call) => call.Records!.map((r) => JSON.parse(Buffer.from(r.Data!).toString()).record));

describe('the ingestion functions as deployed', () => {
  test('write to the stream the environment names', async () => {
    await post(events, [{ app_id: 'app_1', profile_id: 'player-1', event: 'deposit', urm_date_time: '2026-11-21T10:00:00Z' }]);

    expect(calls().map((call) => call.StreamName)).toEqual(['stream']);
  });

  test("POST /profiles writes a profile's records one round after another, where /events sends them in one call", async () => {
    const profileIds = ['player-1', 'player-2', 'player-1'];
    const profileRecords = profileIds.map((profile_id, n) => ({ app_id: 'app_1', profile_id, urm_date_time: '2026-11-21T10:00:00Z', urm_set: { n } }));
    const eventRecords = profileIds.map((profile_id, n) => ({ app_id: 'app_1', profile_id, event: 'deposit', urm_date_time: '2026-11-21T10:00:00Z', n }));

    const profilesResponse = await post(profiles, profileRecords);
    const profileCalls = recordsPerCall().map((call) => call.map((record) => record.urm_set.n));
    kinesis.resetHistory();
    const eventsResponse = await post(events, eventRecords);
    const eventCalls = recordsPerCall().map((call) => call.map((record) => record.n));

    expect([profilesResponse.statusCode, eventsResponse.statusCode]).toEqual([200, 200]);
    expect(profileCalls).toEqual([[0, 1], [2]]);
    expect(eventCalls).toEqual([[0, 1, 2]]);
  });
});
