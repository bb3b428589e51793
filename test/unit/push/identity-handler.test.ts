import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { KinesisClient, PutRecordsCommand, type PutRecordsCommandInput } from '@aws-sdk/client-kinesis';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { profileIdProof } from '../../../functions/domain/identity';
import { apiEvent, context, keysByHash, setFunctionEnv, type ProxyHandler } from '../../support/lambda';

setFunctionEnv({ KEYS_TABLE: 'keys', APPS_TABLE: 'apps', STREAM_NAME: 'stream', SECRETS_PREFIX: '/urm/Urm' });

const kinesis = mockClient(KinesisClient);
const dynamo = mockClient(DynamoDBDocumentClient);
const ssm = mockClient(SSMClient);

const site = 'https://play.example.com';
const secret = 'urm_identity_unit-test-secret';
const keys = keysByHash({
  'browser-key': { app_id: 'app_1', scope: 'browser', key_id: 'k1' },
  'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k2' },
});

let profiles: ProxyHandler;
beforeAll(async () => {
  profiles = (await import('../../../functions/api/ingest-profiles/handler')).handler as unknown as ProxyHandler;
});

beforeEach(() => {
  kinesis.reset();
  dynamo.reset();
  ssm.reset();
  dynamo.on(GetCommand).callsFake((input: { TableName: string; Key: Record<string, string> }) => ({
    Item: input.TableName === 'apps' ? { app_id: 'app_1', name: 'a', created_at: '', site_origins: [site] } : keys.get(input.Key.key_hash),
  }));
  ssm.on(GetParameterCommand, { Name: '/urm/Urm/apps/app_1/identity-secret' }).resolves({ Parameter: { Value: secret } });
  kinesis.on(PutRecordsCommand).callsFake((input: PutRecordsCommandInput) => ({
    FailedRecordCount: 0,
    Records: input.Records!.map((_, i) => ({ SequenceNumber: `${i}`, ShardId: 'shardId-000000000000' })),
  }));
});

const record = (profileId: string, fields: Record<string, unknown> = {}) => ({
  app_id: 'app_1',
  profile_id: profileId,
  urm_date_time: '2026-11-21T10:00:00Z',
  urm_set: { urm_receives_notifications: false },
  ...fields,
});
const post = (key: string, body: unknown) =>
  profiles(
    apiEvent({
      method: 'POST',
      path: '/profiles?app_id=app_1',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'x-api-key': key, Origin: site },
      body: JSON.stringify(body),
    }),
    context(),
  );
const streamed = () =>
  kinesis.commandCalls(PutRecordsCommand).flatMap((call) => call.args[0].input.Records!.map((entry) => JSON.parse(Buffer.from(entry.Data!).toString()).record));

describe('POST /profiles with a server key', () => {
  test('needs no proof and reads no secret; a proof it sends is dropped too', async () => {
    const response = await post('server-key', [record('player-7'), record('player-8', { urm_profile_id_hash: 'ab'.repeat(32) })]);

    expect(response.statusCode).toBe(200);
    expect(ssm).not.toHaveReceivedCommand(GetParameterCommand);
    expect(streamed().map((written) => Object.keys(written).includes('urm_profile_id_hash'))).toEqual([false, false]);
  });
});

// After the server key's test: the function keeps the secret a few minutes once read.
describe('POST /profiles with a browser key, for a known profile', () => {
  test('without a proof: 403 Forbidden, and nothing goes on the stream', async () => {
    const response = await post('browser-key', [record('player-42')]);

    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ message: 'Forbidden' });
    expect(ssm).toHaveReceivedCommandWith(GetParameterCommand, { Name: '/urm/Urm/apps/app_1/identity-secret', WithDecryption: true });
    expect(kinesis).not.toHaveReceivedCommand(PutRecordsCommand);
  });

  test('with its proof: written, and the proof never reaches the stream', async () => {
    const response = await post('browser-key', [record('player-42', { urm_profile_id_hash: profileIdProof(secret, 'player-42') })]);

    expect(response.statusCode).toBe(200);
    expect(streamed()).toEqual([expect.not.objectContaining({ urm_profile_id_hash: expect.anything() })]);
    expect(streamed()[0].profile_id).toBe('player-42');
  });
});
