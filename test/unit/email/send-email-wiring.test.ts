/**
 * POST /api/send_email as deployed (handler.ts): the configuration set and
 * the stream come from the environment, which only the SES and Kinesis calls
 * show, so the SDK is mocked here.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { PutRecordsCommand, KinesisClient } from '@aws-sdk/client-kinesis';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient, GetCommand, type GetCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { acceptedPutRecords, apiEvent, asProxyHandler, context, keysByHash, type ProxyHandler, setFunctionEnv } from '../../support/lambda';

setFunctionEnv({
  KEYS_TABLE: 'keys',
  CHANNELS_TABLE: 'channels',
  SENDERS_TABLE: 'senders',
  // The send gate's, read only for a request with a purpose.
  APPS_TABLE: 'apps',
  PROFILES_TABLE: 'profiles',
  SEND_GATE_TABLE: 'send-gate',
  PUSH_DELIVERIES_TABLE: 'push-deliveries',
  STREAM_NAME: 'stream',
  SES_CONFIGURATION_SET: 'urm-sending',
  // The unsubscribe keys of marketing mail (SSM parameters under the stack's path).
  SECRETS_PREFIX: '/urm/test',
});

const ses = mockClient(SESv2Client);
const kinesis = mockClient(KinesisClient);
const dynamo = mockClient(DynamoDBDocumentClient);
const byHash = keysByHash({ 'comms-key': { app_id: 'app_1', scope: 'comms', key_id: 'k1' } });
const channel = { app_id: 'app_1', channel_id: 'ch_news', name: 'News', from_email: 'news@example.com', from_name: 'News', enabled: true, created_at: '' };
/** The operator assigned app_1 the channel's address. */
const sender = { domain: 'example.com', sender: 'news@example.com', app_id: 'app_1', kind: 'address', assigned_at: '' };
const items: Record<string, (input: GetCommandInput) => unknown> = {
  keys: (input) => byHash.get(input.Key!.key_hash as string),
  channels: () => channel,
  senders: (input) => (input.Key!.sender === sender.sender ? sender : undefined),
};

let handler: ProxyHandler;
beforeAll(async () => {
  handler = asProxyHandler((await import('../../../functions/api/send-email/handler')).handler);
  dynamo.on(GetCommand).callsFake((input: GetCommandInput) => ({ Item: items[input.TableName!]?.(input) }));
  ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
  kinesis.on(PutRecordsCommand).callsFake(acceptedPutRecords);
});

describe('POST /api/send_email as deployed', () => {
  test('sends with the configuration set and records the event on the stream the environment names', async () => {
    const body = {
      app_id: 'app_1',
      channel_id: 'ch_news',
      profile_id: 'player-1',
      to_addresses: [{ email: 'ann@example.com', name: 'Ann' }],
      subject: 'Hi',
      text_body: 'Hello',
    };

    const response = await handler(
      apiEvent({
        path: '/api/send_email',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'x-api-key': 'comms-key' },
        body: JSON.stringify(body),
      }),
      context('SendEmailFunction'),
    );

    expect(response.statusCode).toBe(200);
    expect(dynamo).toHaveReceivedCommandWith(GetCommand, {
      TableName: 'senders',
      Key: { domain: 'example.com', sender: 'news@example.com' },
      ConsistentRead: true,
    });
    expect(ses).toHaveReceivedCommandWith(SendEmailCommand, { ConfigurationSetName: 'urm-sending' });
    expect(kinesis).toHaveReceivedCommandWith(PutRecordsCommand, { StreamName: 'stream' });
  });
});
