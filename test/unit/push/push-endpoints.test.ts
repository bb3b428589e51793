import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { KinesisClient, PutRecordsCommand } from '@aws-sdk/client-kinesis';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { pushSending } from '../../../functions/manifest/resources';
import { acceptedPutRecords, apiEvent, context, keysByHash, type ProxyHandler, setFunctionEnv } from '../../support/lambda';

// The operator allows one host of its own besides the browsers' push services.
setFunctionEnv({
  KEYS_TABLE: 'keys',
  APPS_TABLE: 'apps',
  STREAM_NAME: 'stream',
  SECRETS_PREFIX: '/urm/test',
  [pushSending.endpointHostsEnvVar]: 'push.example.com',
});

const kinesis = mockClient(KinesisClient);
const dynamo = mockClient(DynamoDBDocumentClient);
const keys: Record<string, object> = {
  'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k1' },
};
const byHash = keysByHash(keys);

let profiles: ProxyHandler;
beforeAll(async () => {
  profiles = (await import('../../../functions/api/ingest-profiles/handler')).handler as unknown as ProxyHandler;
});
beforeEach(() => {
  kinesis.reset();
  dynamo.reset();
  dynamo.on(GetCommand).callsFake((input: { Key: { key_hash: string } }) => ({ Item: byHash.get(input.Key.key_hash) }));
  kinesis.on(PutRecordsCommand).callsFake(acceptedPutRecords);
});

const token = (endpoint: string) =>
  JSON.stringify({ endpoint, keys: { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQ', auth: 'tBHItJI5svbpez7KI4CCXg' } });
const record = { app_id: 'app_1', profile_id: 'player-1', urm_date_time: '2026-11-21T10:00:00Z' };
const post = (body: unknown) =>
  profiles(
    apiEvent({
      path: '/profiles',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Api-Key': 'server-key' },
      body: JSON.stringify(body),
    }),
    context(),
  );

describe('POST /profiles with a web push token', () => {
  test('refuses, even with a server key, an endpoint that is no push service, naming the field, and writes nothing', async () => {
    const response = await post([{ ...record, urm_unique_append: { urm_web_push_notification_token: [token('https://attacker.example/slow')] } }]);

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).errors).toEqual(['[0].urm_unique_append.urm_web_push_notification_token[0] endpoint host is not a push service']);
    expect(kinesis).not.toHaveReceivedCommand(PutRecordsCommand);
  });

  test('refuses one set at the top level too', async () => {
    const response = await post([record, { ...record, urm_web_push_notification_token: [token('https://169.254.169.254/latest/meta-data')] }]);

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).errors).toEqual(['[1].urm_web_push_notification_token[0] endpoint host is not a push service']);
  });

  test("accepts the browsers' push services and the hosts the operator configured", async () => {
    const tokens = [token('https://fcm.googleapis.com/fcm/send/x'), token('https://web.push.apple.com/x'), token('https://push.example.com/x')];

    const response = await post([{ ...record, urm_unique_append: { urm_web_push_notification_token: tokens } }]);

    expect(response.statusCode).toBe(200);
    expect(kinesis).toHaveReceivedCommandTimes(PutRecordsCommand, 1);
  });
});
